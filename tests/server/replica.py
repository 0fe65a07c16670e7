#!/usr/bin/env python3
"""A service replica for tests/server/live_services.sh: after COLD_START seconds (loading a model)
it serves 127.0.0.1:$BOREAS_REPLICA_PORT. GET / takes LATENCY seconds and answers who served it;
GET /metrics answers `inflight_requests N`, the requests being served now (docs/serving.md)."""
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LATENCY = float(os.environ.get("LATENCY", "1"))
lock = threading.Lock()
inflight = 0


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        global inflight
        if self.path == "/metrics":
            with lock:
                body = f"# TYPE inflight_requests gauge\ninflight_requests {inflight}\n"
        else:
            with lock:
                inflight += 1
            time.sleep(LATENCY)
            with lock:
                inflight -= 1
            body = f"service={os.environ['BOREAS_SERVICE']} replica={os.environ['BOREAS_REPLICA']}\n"
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


time.sleep(float(os.environ.get("COLD_START", "0")))
ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer(("127.0.0.1", int(os.environ["BOREAS_REPLICA_PORT"])), Handler).serve_forever()

#!/usr/bin/env python3
"""Fits the serving cost model's three constants (src/serving/cost_model.h) to SplitwiseSim's
profiled Llama-2-70B iterations (splitwise_llama2_70b.csv): the achievable fraction of peak FLOPS
(compute_efficiency), of memory bandwidth (bandwidth_efficiency), and a fixed per-iteration
overhead. Grid search on the mean absolute relative error; prints the fit and per-row errors.
Usage: python3 data/serving/fit_cost_model.py"""
import csv, os, itertools

GPU = {"H100-SXM": (989e12, 3350e9), "A100-80G": (312e12, 2039e9)}  # data/gpus.yaml
PARAMS, LAYERS, HIDDEN, KV_BYTES, TP = 70e9, 80, 8192, 327680, 2
DECODE_CONTEXT_EXTRA = 64  # mean generated tokens so far over a 128-token decode


def roofline(gpu, phase, prompt, batch, ce, be):
    flops_peak, bw = GPU[gpu]
    if phase == "prefill":
        tokens, pairs, kv = batch * prompt, batch * prompt * (prompt + 1) / 2, 0
    else:
        tokens, pairs, kv = batch, batch * (prompt + DECODE_CONTEXT_EXTRA), batch * (prompt + DECODE_CONTEXT_EXTRA)
    flops = 2 * PARAMS * tokens + 4 * LAYERS * HIDDEN * pairs
    byts = 2 * PARAMS + kv * KV_BYTES
    return max(flops / (TP * flops_peak * ce), byts / (TP * bw * be))


def rows():
    path = os.path.join(os.path.dirname(__file__), "splitwise_llama2_70b.csv")
    with open(path) as f:
        lines = [l for l in f if not l.startswith("#")]
    for r in csv.DictReader(lines):
        yield r["gpu"], r["phase"], int(r["prompt_tokens"]), int(r["batch"]), float(r["ms"]) / 1e3


def error(ce, be, o):
    errs = [abs(o + roofline(g, p, n, b, ce, be) - t) / t for g, p, n, b, t in rows()]
    return sum(errs) / len(errs), max(errs)


best = min(((error(ce / 100, be / 100, o / 1e3), ce / 100, be / 100, o / 1e3)
            for ce, be, o in itertools.product(range(20, 101), range(20, 101), range(0, 31))),
           key=lambda x: x[0][0])
(mean_err, max_err), ce, be, o = best
print(f"compute_efficiency={ce} bandwidth_efficiency={be} overhead_s={o} mean_abs_error={mean_err:.3f} max={max_err:.3f}")
for g, p, n, b, t in rows():
    m = o + roofline(g, p, n, b, ce, be)
    print(f"{g:9} {p:7} {n:5} {b:3} measured {t*1e3:8.1f} ms model {m*1e3:8.1f} ms error {100*(m-t)/t:+6.1f}%")

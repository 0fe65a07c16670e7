# docs/api/openapi.yaml must pass a standard OpenAPI linter: Redocly's CLI, pinned in web/'s
# lockfile (src/report/CMakeLists.txt runs `npm ci` there). Errors fail through the exit status,
# warnings through the output; the rules are docs/api/redocly.yaml.
set(BOREAS_REDOCLY ${PROJECT_SOURCE_DIR}/web/node_modules/@redocly/cli/bin/cli.js)
add_test(NAME openapi_lint
         COMMAND ${BOREAS_NODE} ${BOREAS_REDOCLY} lint --config ${PROJECT_SOURCE_DIR}/docs/api/redocly.yaml
                 ${PROJECT_SOURCE_DIR}/docs/api/openapi.yaml)
set_tests_properties(openapi_lint PROPERTIES LABELS unit TIMEOUT 60
  FAIL_REGULAR_EXPRESSION "You have [0-9]+ warning"
  ENVIRONMENT "REDOCLY_TELEMETRY=off;REDOCLY_SUPPRESS_UPDATE_NOTICE=true;NO_COLOR=1")

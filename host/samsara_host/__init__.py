"""The `samsara` host tool: rules, simulated board, traces, deploy, monitor, logs."""

//! UCI client: spawn an engine process, handshake, options, go/stop, timeouts, crash detection.

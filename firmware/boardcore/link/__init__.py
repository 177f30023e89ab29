"""The host link (docs/protocol.md): the line protocol's tables of commands and events
(`protocol`, shared with the host tool) and the board's side of the USB link: framing,
command dispatch, replies and the event stream (`hostlink`, a sink of the main loop)."""

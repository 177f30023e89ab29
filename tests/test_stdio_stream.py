"""The link's port on a real file pair (samsara.link.hostlink.StdioStream): writes go out
and call the port's own service after each write that took bytes (on the Pico,
mainboot._usb_service: the USB stack runs then, not at the loop's next sleep)."""
import os

from samsara.link.hostlink import StdioStream


def test_after_write_runs_once_per_write_that_took_bytes():
    r_in, w_in = os.pipe()
    r_out, w_out = os.pipe()
    calls = []
    with os.fdopen(r_in, "rb", buffering=0) as inp, os.fdopen(w_out, "wb", buffering=0) as out:
        st = StdioStream(inp, out, after_write=lambda: calls.append(1))
        buf = bytearray(b'{"ev": "place"}\n{"ev": "sub"}\n')
        assert st.write(buf, 0, len(buf)) == len(buf)
        assert calls == [1]
        assert os.read(r_out, 100) == bytes(buf)
        assert st.write(buf, 0, 0) == 0          # nothing taken: no service
        assert calls == [1]
        # without a service (the virtual board, the tests) a write is a write
        plain = StdioStream(inp, out)
        assert plain.write(buf, 16, len(buf) - 16) == len(buf) - 16
        assert os.read(r_out, 100) == bytes(buf[16:])
    os.close(w_in)
    os.close(r_out)

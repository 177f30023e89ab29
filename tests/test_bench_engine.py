"""tools/bench_engine.py (docs/engine.md "Time") refuses options under which it would
time nothing or never find a close choice, before it times anything."""
import pytest

from tools import bench_engine


@pytest.mark.parametrize("argv", [["--top", "1"], ["--top", "0"], ["--close", "-0.01"],
                                  ["--decisions", "0"]])
def test_options_that_measure_nothing_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as e:
        bench_engine.main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert ("--decisions must be at least 1" if argv[0] == "--decisions"
            else "--top must be at least 2") in err

"""Each game's firmware holds that game's module only.  Samsara's bundle and image: the
other games' packages under firmware/ (tools/build_firmware.OTHER_GAMES: firmware/samas/,
firmware/schaska/) and what only they share (GAMES_SHARED: firmware/gameboard/) are
left out of the bundle's sources, the image's frozen tree and the
firmware benchmark's import list, while the compile check still covers every file.  A
game's bundle (Samas, Schaska): the board core every game shares (firmware/boardcore/),
the scan loop, the drivers and its own package, nothing of firmware/samsara/."""
import os

from tools import build_firmware, build_image, bench_firmware

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")


def _all_py():
    out = []
    for root, dirs, names in os.walk(FIRMWARE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        out += [os.path.relpath(os.path.join(root, n), FIRMWARE).replace(os.sep, "/")
                for n in names if n.endswith(".py")]
    return sorted(out)


def test_the_other_games_are_under_firmware():
    for game in build_firmware.OTHER_GAMES:
        assert os.path.isfile(os.path.join(FIRMWARE, game, "rules", "game.py")), game


def test_the_bundle_and_the_image_leave_the_other_games_out_and_nothing_else():
    every = _all_py()
    others = [r for r in every if r.split("/")[0] in build_firmware.NOT_SAMSARA]
    assert len(others) >= 9
    assert "gameboard/core.py" in others and "entry.py" not in others
    bundle = [r.replace(os.sep, "/") for r in build_firmware.sources(FIRMWARE)]
    assert bundle == [r for r in every if r not in others]
    frozen = build_image.frozen_sources(FIRMWARE)
    assert frozen == [r for r in every if r not in others and r not in build_image.ON_FS]


def test_the_benchmarks_import_list_leaves_the_other_games_out():
    order = bench_firmware.import_order(FIRMWARE)
    assert "samsara.rules.moves" in order
    assert not [m for m in order if m.split(".")[0] in build_firmware.NOT_SAMSARA]


def test_a_game_bundle_holds_its_own_game_and_not_the_other():
    for game in build_firmware.OTHER_GAMES:
        rels = [r.replace(os.sep, "/") for r in build_firmware.game_sources(game, FIRMWARE)]
        assert "%s/boot.py" % game in rels and "%s/rules/game.py" % game in rels
        assert "%s/controller.py" % game in rels and "mainloop.py" in rels
        assert "gameboard/core.py" in rels and "gameboard/boot.py" in rels
        assert "entry.py" in rels
        for other in build_firmware.OTHER_GAMES:
            if other != game:
                assert not [r for r in rels if r.startswith(other + "/")], (game, other)
        # nothing of Samsara's game module: its boot, board core, rules, log policy,
        # host commands; the board core every game shares is there
        assert "mainboot.py" not in rels, game
        assert not [r for r in rels if r.split("/")[0] == "samsara"], game
        for r in ("boardcore/debounce.py", "boardcore/link/hostlink.py",
                  "boardcore/link/commands.py", "boardcore/storage/gamelog.py",
                  "boardcore/frame.py"):
            assert r in rels, (game, r)
        main = build_firmware.GAME_MAIN % (game.capitalize(), game, game)
        assert "from %s.boot import main" % game in main
        compile(main, "main.py", "exec")


def test_a_game_image_freezes_its_own_game_and_the_shared_core_only(tmp_path):
    ids = set()
    for game in build_firmware.OTHER_GAMES:
        stage = str(tmp_path / game)
        ids.add(build_image.stage(FIRMWARE, stage, game))
        frozen = os.path.join(stage, "frozen")
        tops = sorted(os.listdir(frozen))
        assert game in tops and "boardcore" in tops and "gameboard" in tops, tops
        assert "samsara" not in tops and "mainboot.py" not in tops, tops
        for other in build_firmware.OTHER_GAMES:
            assert other == game or other not in tops, (game, tops)
        assert "main.py" not in tops and "boot.py" not in tops   # on the file system
        with open(os.path.join(stage, "manifest.py")) as f:
            manifest = f.read()
        assert 'package("%s"' % game in manifest and "freeze_mpy" not in manifest
        with open(os.path.join(frozen, "boardcore", "version.py")) as f:
            assert 'KIND = "image"' in f.read()
        fs = build_image.write_fs(str(tmp_path / (game + "-out")), game)
        with open(os.path.join(fs, "main.py")) as f:
            assert "from %s.boot import main" % game in f.read()
    ids.add(build_image.stage(FIRMWARE, str(tmp_path / "samsara")))
    assert len(ids) == 3          # each game's image has its own id

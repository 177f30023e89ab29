"""`samsara flash`: the firmware image onto a Pico in BOOTSEL mode (docs/firmware.md
"Flashing a board"), against a simulated BOOTSEL drive (tests/fakes/bootsel.py: a folder
with INFO_UF2.TXT and INDEX.HTM that takes a whole UF2 and goes away as the Pico
restarts), a virtual board put into BOOTSEL from the host, a stand-in picotool, and, in
the rig test, the emulated Pico booting the very file flash copied.
"""
import os
import resource
import signal
import subprocess
import sys

import pytest

import testports

from fakes.bootsel import BootselPico, make_drive, make_uf2
from samsara_host import fwstamp

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
IMAGE_ID = "0123456789ab"


def samsara(*args, env=None, timeout=120, limit=None):
    """Run the samsara command; `limit`: a file-size limit in bytes for its writes (a
    write past it fails as an unplugged drive's would)."""
    def cut_writes():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    e = dict(os.environ)
    e.update(env or {})
    cmd = [sys.executable, "-c", "import sys; from samsara_host.cli import main; sys.exit(main())"]
    return subprocess.run(cmd + list(args), capture_output=True, text=True, timeout=timeout,
                          env=e, cwd=ROOT, preexec_fn=cut_writes if limit else None)


def our_image(path, kb=64, image_id=IMAGE_ID, addr=0x10000000):
    """A small UF2 image that carries a Samsara version tag, as `make uf2` stamps it."""
    tag = b"samsara-image 0.1.0 " + image_id.encode()
    payload = (tag + b"\0" + bytes(range(256)) * (kb * 4))[:kb * 1024]
    with open(path, "wb") as f:
        f.write(make_uf2(payload, addr=addr))
    return str(path)


@pytest.fixture
def media(tmp_path):
    """(mount root, environment): SAMSARA_MOUNT_ROOTS names an empty mount root, and no
    serial port is a Pico (pyserial finds none on this machine)."""
    root = tmp_path / "media"
    root.mkdir()
    return str(root), {"SAMSARA_MOUNT_ROOTS": str(root), "PATH": os.environ["PATH"]}


def test_image_facts_read_the_stamped_tag_and_refuse_a_cut_file(tmp_path):
    path = our_image(tmp_path / "a.uf2", kb=8)
    f = fwstamp.image_facts(path)
    assert f["image_id"] == IMAGE_ID and f["version"] == "0.1.0"
    assert f["family"] == fwstamp.RP2040_FAMILY and f["start"] == 0 and f["end"] == 8 * 1024
    data = open(path, "rb").read()
    with open(tmp_path / "cut.uf2", "wb") as fh:
        fh.write(data[:len(data) // 2])
    with pytest.raises(ValueError, match="not a whole UF2 image"):
        fwstamp.image_facts(str(tmp_path / "cut.uf2"))
    with open(tmp_path / "odd.uf2", "wb") as fh:
        fh.write(data[:1000])
    with pytest.raises(ValueError, match="512-byte blocks"):
        fwstamp.image_facts(str(tmp_path / "odd.uf2"))


def test_stamp_sets_hash_kind_and_tag_together():
    src = open(os.path.join(ROOT, "firmware", "boardcore", "version.py")).read()
    out = fwstamp.stamp(src, "abcdef012345", "image")
    assert 'HASH = "abcdef012345"' in out and 'KIND = "image"' in out
    assert 'TAG = "samsara-image 0.1.0 abcdef012345"' in out
    with pytest.raises(ValueError, match="kind"):
        fwstamp.stamp(src, "abcdef012345", "flash")
    with pytest.raises(ValueError, match="TAG"):
        fwstamp.stamp(src.replace("TAG =", "XTAG ="), "abcdef012345", "image")


def test_flash_finds_the_drive_copies_and_the_pico_takes_the_image(tmp_path, media):
    root, env = media
    drive = make_drive(os.path.join(root, "RPI-RP2"))
    make_drive(os.path.join(root, "FEATHERBOOT"), board_id="SAMD21G18A-Feather-v0")
    image = our_image(tmp_path / "samsara-0.1.0-rpi_pico.uf2")
    pico = BootselPico(drive)
    try:
        r = samsara("flash", image, "--no-wait", env=env)
    finally:
        pico.stop()
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Copying onto %s" % drive in r.stdout
    assert "The Pico took the image" in r.stdout
    assert len(pico.taken) == 1
    assert open(pico.taken[0], "rb").read() == open(image, "rb").read()
    assert not os.path.exists(drive)


def test_a_cut_copy_says_how_to_recover_and_flashing_again_finishes(tmp_path, media):
    root, env = media
    drive = make_drive(os.path.join(root, "RPI-RP2"))
    image = our_image(tmp_path / "samsara-0.1.0-rpi_pico.uf2", kb=256)   # 512 KB of UF2
    pico = BootselPico(drive)
    try:
        r = samsara("flash", image, "--no-wait", env=env, limit=192 * 1024)
        assert r.returncode == 1, r.stdout + r.stderr
        assert "the copy was cut after 192 of 512 KB" in r.stderr, r.stderr
        assert "hold the BOOTSEL button" in r.stderr and "run `samsara flash` again" in r.stderr
        assert "game logs" in r.stderr
        assert pico.taken == [] and os.path.isfile(os.path.join(drive, "INFO_UF2.TXT"))
        r = samsara("flash", image, "--no-wait", env=env)
    finally:
        pico.stop()
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(pico.taken) == 1
    assert open(pico.taken[0], "rb").read() == open(image, "rb").read()


def test_a_wrong_drive_is_refused_and_nothing_is_written(tmp_path, media):
    root, env = media
    image = our_image(tmp_path / "samsara-0.1.0-rpi_pico.uf2")
    other = make_drive(os.path.join(root, "FEATHERBOOT"), board_id="SAMD21G18A-Feather-v0")
    r = samsara("flash", image, "--drive", other, env=env)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "another board's bootloader (Board-ID: SAMD21G18A-Feather-v0)" in r.stderr
    stick = tmp_path / "USBSTICK"
    stick.mkdir()
    r = samsara("flash", image, "--drive", str(stick), env=env)
    assert r.returncode == 2 and "has no INFO_UF2.TXT" in r.stderr, r.stderr
    # found among the mounted drives: only the other board's, so no Pico in BOOTSEL
    r = samsara("flash", image, env=env)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "no Pico in BOOTSEL mode (found %s, another board's bootloader" % other in r.stderr
    assert "Hold the board's BOOTSEL button" in r.stderr
    assert sorted(os.listdir(other)) == ["INDEX.HTM", "INFO_UF2.TXT"]
    assert os.listdir(str(stick)) == []


def test_an_image_that_would_write_into_the_game_logs_is_refused(tmp_path, media):
    root, env = media
    drive = make_drive(os.path.join(root, "RPI-RP2"))
    bad = our_image(tmp_path / "big.uf2", kb=8, addr=0x10000000 + fwstamp.FS_START - 4096)
    r = samsara("flash", bad, env=env)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "past the start of the file system at 640 KB where the game logs live" in r.stderr
    assert sorted(os.listdir(drive)) == ["INDEX.HTM", "INFO_UF2.TXT"]
    with open(tmp_path / "notes.uf2", "w") as f:
        f.write("hello\n")
    r = samsara("flash", str(tmp_path / "notes.uf2"), env=env)
    assert r.returncode == 2 and "not a whole UF2 image" in r.stderr, r.stderr
    r = samsara("flash", str(tmp_path / "missing.uf2"), env=env)
    assert r.returncode == 2 and "no image file" in r.stderr, r.stderr


def test_picotool_writes_the_image_where_no_drive_is_mounted(tmp_path, media):
    root, env = media
    loaded = tmp_path / "picotool-device"
    loaded.mkdir()
    image = our_image(tmp_path / "samsara-0.1.0-rpi_pico.uf2")
    env = dict(env, PATH=os.path.join(HERE, "fakes") + os.pathsep + env["PATH"],
               FAKE_PICOTOOL_DIR=str(loaded))
    r = samsara("flash", image, "--no-wait", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "writing with picotool" in r.stdout
    assert open(str(loaded / "loaded.uf2"), "rb").read() == open(image, "rb").read()


def test_a_running_board_is_put_into_bootsel_from_the_host(tmp_path, media, monkeypatch):
    # the virtual board's machine.bootloader() becomes the RPI-RP2 drive and ends its
    # process, as a Pico's does; once the image is taken the board comes back (started
    # again on the same port) running its sources, not the image: flash says so
    from samsara_host.virtual_board import VirtualBoard
    root, env = media
    drive = os.path.join(root, "RPI-RP2")
    monkeypatch.setenv("SAMSARA_VBOARD_BOOTSEL", drive)
    image = our_image(tmp_path / "samsara-0.1.0-rpi_pico.uf2")
    vb = VirtualBoard(folder=str(tmp_path / "vb"), board_id="virtual-flash")
    vb.start()
    pico = None
    try:
        vb.wait_ready()
        pico = BootselPico(drive, on_image=lambda _copy: vb.start())
        r = samsara("flash", image, "--port", vb.port, "--timeout", "40", env=env,
                    timeout=180)
        assert r.returncode == 1, r.stdout + r.stderr
        assert "runs the source firmware (dev); putting it into BOOTSEL mode" in r.stdout
        assert "The Pico took the image" in r.stdout
        assert ("came back on %s but runs the source firmware (dev), not the image %s"
                % (vb.port, IMAGE_ID)) in r.stderr, r.stderr
        assert len(pico.taken) == 1 and pico.errors == []
    finally:
        if pico is not None:
            pico.stop()
        vb.stop()


@pytest.mark.rig
def test_the_image_flash_copies_boots_on_the_emulated_pico(tmp_path, media):
    from tools import rig as rigmod
    from test_rig import _need_rig
    rig = _need_rig()
    root, env = media
    drive = make_drive(os.path.join(root, "RPI-RP2"))
    args = rigmod.image_args()
    image, fs = args[1], args[3]
    ident = fwstamp.image_facts(image)["image_id"]
    port, control = testports.free_ports(2)
    served = []

    def boot(copy):     # the Pico restarts on the image it took
        srv = rigmod.Serve(rig, port, control=control, firmware=None,
                           extra=["--serve", "--uf2", copy, "--fs-dir", fs])
        served.append(srv.__enter__())
    pico = BootselPico(drive, on_image=boot)
    try:
        r = samsara("flash", "--port", "socket://127.0.0.1:%d" % port, "--timeout", "240",
                    env=env, timeout=400)
        log = served[0].log() if served else ""
    finally:
        pico.stop()
        for srv in served:
            srv.__exit__(None, None, None)
    assert r.returncode == 0, r.stdout + r.stderr + log[-2000:]
    assert "The board on socket://127.0.0.1:%d runs the image %s" % (port, ident) in r.stdout
    assert len(pico.taken) == 1 and pico.errors == []
    assert open(pico.taken[0], "rb").read() == open(image, "rb").read()

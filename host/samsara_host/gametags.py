"""The tags a player adds to a game (names, event, site, date) kept in a sidecar file
beside the game, so the game's own bytes and their checksums never change
(docs/gamelog.md "Tags sidecar", docs/host-tool.md "logs tag").

The sidecar of `game-0001.log` is `game-0001.log.tags`: one JSON object of tag
name to text, e.g. {"Date": "2026.11.29", "PlayerA": "Anna", "PlayerB": "Ben"}.
`logs pull` writes it (the date of the pull: the Pico has no clock; --names),
`logs tag` edits it, and `load_tagged` lays it over the tags the record has from
its own header, for `logs export` and `logs show`.
"""
import datetime
import json
import os
import re
import unicodedata

EDITABLE = ("Event", "Site", "Date", "PlayerA", "PlayerB")
SUFFIX = ".tags"
DATE = re.compile(r"[0-9]{4}\.[0-9]{2}\.[0-9]{2}$")   # ASCII digits (\d takes any script's)


class TagError(ValueError):
    """A tag value that cannot be stored, or a sidecar that cannot be read."""


MAX_TEXT = 40
"""The longest name or tag text in characters (it fits a line of the library and a
picture's caption)."""


JOINERS = "\u200c\u200d"
"""The format characters (Unicode category Cf) a name may hold: the zero-width
non-joiner and joiner, which Persian and Indic names and emoji sequences need; every
other Cf (the right-to-left override U+202E, the zero-width space, the BOM...) and
every control character (Cc) is refused."""


def check_text(value, what="a name", limit=MAX_TEXT):
    """`value` with the spaces around it taken off, if it can be a player's name or a
    tag's text: not empty, at most `limit` characters (MAX_TEXT), no control characters
    (line breaks, tabs, escapes: Unicode category Cc), no format characters (Cf: the
    right-to-left override, zero-width space; JOINERS excepted), no lone surrogate
    (Cs); else TagError saying which.  The one check of
    `--names` (logs pull, logs tag), `logs tag`'s other texts, the app's names and an
    online player's `--name` (limit 24)."""
    if not isinstance(value, str):
        raise TagError("%s must be text" % what)
    v = value.strip()
    if not v:
        raise TagError("%s is empty: give it some text" % what)
    if len(v) > limit:
        raise TagError("%s has at most %d characters, not %d" % (what, limit, len(v)))
    for ch in v:
        if ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or ch in "\u2028\u2029":
            raise TagError("%s may not hold control characters (line breaks, tabs, "
                           "escapes): %r" % (what, v))
        cat = unicodedata.category(ch)
        if cat == "Cs":
            raise TagError("%s is not valid text: it holds a lone surrogate (%r), e.g. "
                           "from bytes that are not UTF-8: type the name again" % (what, v))
        if cat == "Cf" and ch not in JOINERS:
            raise TagError("%s may not hold invisible format characters (U+%04X %s): "
                           "they turn or hide the text around them" % (
                               what, ord(ch), unicodedata.name(ch, "format character")))
    return v


def check_names(names):
    """The two players' names (A's, B's), each checked by check_text; TagError names
    the player."""
    if names is None or len(names) != 2:
        raise TagError("give both players' names")
    return [check_text(n, "player %s's name" % side) for side, n in zip("AB", names)]


def sidecar(path):
    """The sidecar file of the game file at `path`."""
    return path + SUFFIX


def today(clock=datetime.date.today):
    """Today's date as a record's Date tag: 'YYYY.MM.DD'."""
    return clock().strftime("%Y.%m.%d")


def read(path):
    """{tag: text} of the sidecar of `path` ({} when there is none).  Raises TagError
    for a sidecar that is not a JSON object of texts."""
    try:
        with open(sidecar(path), encoding="utf-8") as f:
            obj = json.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, RecursionError) as e:
        raise TagError("%s: not a tags file: %s" % (sidecar(path), e))
    if not isinstance(obj, dict):
        raise TagError("%s: not a tags file: not a JSON object" % sidecar(path))
    return {k: str(v) for k, v in obj.items() if k in EDITABLE}


def _is_date(v):
    """True for YYYY.MM.DD naming a real day (2026.02.29 and 2026.13.45 are not)."""
    if not DATE.match(v):
        return False
    try:
        datetime.date(int(v[:4]), int(v[5:7]), int(v[8:]))
    except ValueError:
        return False
    return True


def check(tags):
    """Raise TagError for a tag this file does not keep, a Date not YYYY.MM.DD, or a
    text check_text refuses (empty, too long, control characters)."""
    for k, v in tags.items():
        if k not in EDITABLE:
            raise TagError("%s is not a tag a player sets (%s)" % (k, ", ".join(EDITABLE)))
        if k == "Date" and not _is_date(v):
            raise TagError("the date must be a day of the calendar as YYYY.MM.DD, e.g. %s, "
                           "not %r" % (today(), v))
        what = {"PlayerA": "player A's name", "PlayerB": "player B's name"}.get(k, k)
        try:
            check_text(v, what)
        except TagError as e:
            if not str(v).strip():
                raise TagError("%s (a tag is changed, never removed)" % e)
            raise


def update(path, tags):
    """Merge `tags` into the sidecar of `path` (written anew, atomically); returns the
    sidecar's tags.  Raises TagError, OSError."""
    check(tags)
    tags = {k: (v if k == "Date" else v.strip()) for k, v in tags.items()}
    merged = read(path)
    merged.update(tags)
    tmp = sidecar(path) + ".new"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({k: merged[k] for k in EDITABLE if k in merged}, f, indent=1,
                  ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, sidecar(path))
    return merged


def stamp_pull(path, names=None):
    """After a pull into `path`: the date of the first pull (kept when the sidecar
    already has one) and the players' names when given ((A, B) or None)."""
    tags = {}
    if "Date" not in read(path):
        tags["Date"] = today()
    if names:
        tags["PlayerA"], tags["PlayerB"] = check_names(names)
    return update(path, tags) if tags else read(path)


def apply(rec, path):
    """Lay the sidecar's tags of `path` over GameRecord `rec`'s; returns rec."""
    rec.tags.update(read(path))
    return rec


def load_tagged(path):
    """samsara_host.record.load(path) with the sidecar's tags laid over.  Raises
    record.RecordError (a TagError is one too)."""
    from samsara_host import record
    rec = record.load(path)
    try:
        return apply(rec, path)
    except TagError as e:
        raise record.RecordError(str(e))

"""The code of an online game (docs/online.md "The code"): what one player reads out to
the other over the phone, `GGGG-SSSS-SSSS` in Crockford's base 32 (no I, L, O, U; a
mistyped O is read as 0, I and L as 1, case and dashes do not matter).

- `GGGG` (20 bits) is the game's id: it names the game's topics on the broker and is
  written into both boards' logs.  Anybody on the broker sees it.
- `SSSS-SSSS` (40 bits) is the secret: never sent anywhere.  The game's key is derived
  from it (PBKDF2-HMAC-SHA256, 20000 rounds, salted with the id): whoever has the code
  can read and write the game's messages, nobody else can (samsara_host.online.wire).
"""
import hashlib
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32 digits."""
_READ_AS = {"O": "0", "I": "1", "L": "1"}
ID_CHARS = 4
SECRET_CHARS = 8
ROUNDS = 20000
"""PBKDF2 rounds of the key derivation (about 10 ms on a laptop: each guess of a
secret costs as much)."""


class CodeError(ValueError):
    """A code that is not GGGG-SSSS-SSSS; str() says what is wrong."""


def new_code(rng=None):
    """A fresh code (text, `GGGG-SSSS-SSSS`) from `rng` (an object with randbits(n);
    default the system's secure source)."""
    bits = (rng or secrets.SystemRandom()).getrandbits(5 * (ID_CHARS + SECRET_CHARS))
    digits = []
    for _ in range(ID_CHARS + SECRET_CHARS):
        digits.append(ALPHABET[bits & 31])
        bits >>= 5
    s = "".join(digits)
    return "%s-%s-%s" % (s[:4], s[4:8], s[8:])


def parse_code(text):
    """(game id, secret) of a code as typed: each text in upper case without dashes.
    Raises CodeError for a code of the wrong length or with other characters."""
    if not isinstance(text, str):
        raise CodeError("a code is text like 7K3M-Q9XD-4FJT")
    s = "".join(text.split()).replace("-", "").upper()
    s = "".join(_READ_AS.get(ch, ch) for ch in s)
    bad = sorted(set(ch for ch in s if ch not in ALPHABET))
    if bad:
        raise CodeError("a code has the digits 0-9 and the letters A-Z without I, L, O, "
                        "U; %r has %s" % (text, ", ".join(bad)))
    if len(s) != ID_CHARS + SECRET_CHARS:
        raise CodeError("a code has %d characters (like 7K3M-Q9XD-4FJT), %r has %d"
                        % (ID_CHARS + SECRET_CHARS, text, len(s)))
    return s[:ID_CHARS], s[ID_CHARS:]


def game_key(game_id, secret, rounds=ROUNDS):
    """The game's 32-byte key from its id and secret (module docstring)."""
    return hashlib.pbkdf2_hmac("sha256", secret.encode("ascii"),
                               b"samsara-online-v1|" + game_id.encode("ascii"), rounds, 32)

"""HTTP helpers of the tests that talk to a running `samsara app` (its JSON API): a GET
and a POST of JSON (waiting for an answer: tests/polling.py)."""
import json
import urllib.error
import urllib.request


def get_json(url):
    """The JSON of a GET of `url` (20 s timeout)."""
    with urllib.request.urlopen(url, timeout=20) as r:
        return json.load(r)


def post_json(url, body):
    """(HTTP status, reply JSON) of a POST of `body` as JSON to `url`; an error status
    is returned, not raised."""
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


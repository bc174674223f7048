"""catsim's driver adapter for the Python example host (catsim.driver.v1, docs/BLACK-BOX.md).

Connects the host to every server in CATSIM_SERVERS, then long-polls CATSIM_DRIVER_URL for steps
and posts each result: `call` as a model would ask, `disclose` (the tool names the host would
show a model now, per server), `sleep`, `end`. Standard library only.
Run: python3 adapter.py   (catsim host-test sets the environment).
"""
import json
import os
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from host import Server  # noqa: E402

DRIVER = os.environ["CATSIM_DRIVER_URL"]


def driver(path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(DRIVER + path, data=data, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read()
        return response.status, (json.loads(text) if text else None)


def perform(step, servers):
    if step["kind"] == "sleep":
        time.sleep(step["ms"] / 1000)
        return {"status": "ok"}
    if step["kind"] == "disclose":
        return {"status": "ok", "tools": {name: list(server.catalog()) for name, server in servers.items()}}
    status, detail = servers[step["server"]].call(step["tool"], step["arguments"])
    return {"status": status, **({"detail": detail} if detail else {})}


def main():
    servers = {entry["name"]: Server(entry, dict(os.environ)) for entry in json.loads(os.environ["CATSIM_SERVERS"])}
    for server in servers.values():
        server.catalog()
    seq = 1
    while True:
        status, step = driver("/step?seq=%d" % seq)
        if status == 204:
            continue
        if step["kind"] == "end":
            driver("/result", {"seq": seq, "status": "ok"})
            break
        driver("/result", {"seq": seq, **perform(step, servers)})
        seq += 1
    for server in servers.values():
        server.close()


if __name__ == "__main__":
    main()

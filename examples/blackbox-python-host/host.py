"""A small MCP host in Python using only the standard library (issue 28, examples).

The host part of catsim's Python example: an MCP client over stdio (it launches the server
command, here catsim's stdio shim) or Streamable HTTP (POST per message, SSE answers, a GET SSE
stream for notifications), and a catalog per server that is walked page by page and marked
stale on notifications/tools/list_changed. It is written the way many hand-rolled clients are:
a walk stops at the first falsy next cursor ("" included), is capped at PAGES_MAX pages without
remembering the cursors it followed, and lets an error answer mid-walk (a cursor refused after a
server restart) end the process. catsim's cases find all three (docs/BLACK-BOX.md).
"""
import http.client
import json
import subprocess
import threading
import urllib.parse

PAGES_MAX = 50
PROTOCOL_VERSION = "2025-06-18"


class StdioConnection:
    """JSON-RPC over a child's stdin/stdout, one message per line."""

    def __init__(self, command, args, env, on_notification):
        self.proc = subprocess.Popen([command, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.on_notification = on_notification
        self.waiting = {}
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            message = json.loads(line)
            if "id" in message and ("result" in message or "error" in message):
                slot = self.waiting.pop(message["id"])
                slot["message"] = message
                slot["event"].set()
            elif "method" in message:
                self.on_notification(message)

    def request(self, message):
        slot = {"event": threading.Event()}
        self.waiting[message["id"]] = slot
        self.notify(message)
        if not slot["event"].wait(10):
            raise TimeoutError(message["method"])
        return slot["message"]

    def notify(self, message):
        with self.lock:
            self.proc.stdin.write((json.dumps(message) + "\n").encode())
            self.proc.stdin.flush()

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(5)


class HttpConnection:
    """Streamable HTTP: each message a POST; answers as JSON or an SSE stream; notifications on a GET SSE stream."""

    def __init__(self, url, token, on_notification):
        self.url = urllib.parse.urlsplit(url)
        self.headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        self.on_notification = on_notification
        self.session = None

    def _post(self, message):
        conn = http.client.HTTPConnection(self.url.hostname, self.url.port, timeout=10)
        headers = dict(self.headers)
        if self.session:
            headers["Mcp-Session-Id"] = self.session
            headers["Mcp-Protocol-Version"] = PROTOCOL_VERSION
        conn.request("POST", self.url.path, json.dumps(message), headers)
        response = conn.getresponse()
        self.session = response.getheader("mcp-session-id") or self.session
        return conn, response

    def request(self, message):
        conn, response = self._post(message)
        try:
            if response.getheader("content-type", "").startswith("text/event-stream"):
                for data in sse_data(response):
                    if data.get("id") == message["id"]:
                        return data
                    if "method" in data:
                        self.on_notification(data)
                raise ConnectionError("SSE stream ended without an answer")
            return json.loads(response.read())
        finally:
            conn.close()

    def notify(self, message):
        conn, response = self._post(message)
        response.read()
        conn.close()
        if message["method"] == "notifications/initialized":
            # Read no catalog before the notification stream is open: a list_changed sent before
            # it is lost (a server drops it), so a change during the first walk would go unseen.
            # (Without this wait catsim's HTTP cases failed once under load: the GET lost the race
            # to page 2 of walk 1 and the notification never arrived.)
            listening = threading.Event()
            threading.Thread(target=self._listen, args=(listening,), daemon=True).start()
            listening.wait(10)

    def _listen(self, listening):
        conn = http.client.HTTPConnection(self.url.hostname, self.url.port)
        headers = {"Authorization": self.headers["Authorization"], "Accept": "text/event-stream", "Mcp-Session-Id": self.session, "Mcp-Protocol-Version": PROTOCOL_VERSION}
        conn.request("GET", self.url.path, headers=headers)
        try:
            response = conn.getresponse()
            listening.set()
            for data in sse_data(response):
                if "method" in data:
                    self.on_notification(data)
        except (OSError, http.client.HTTPException):
            listening.set()

    def close(self):
        conn = http.client.HTTPConnection(self.url.hostname, self.url.port, timeout=5)
        try:
            conn.request("DELETE", self.url.path, headers={"Authorization": self.headers["Authorization"], "Mcp-Session-Id": self.session or ""})
            conn.getresponse().read()
        except OSError:
            pass


def sse_data(response):
    """Yields the JSON data of each SSE event of a response."""
    lines = []
    for raw in response:
        line = raw.decode().rstrip("\r\n")
        if line == "":
            if lines:
                yield json.loads("\n".join(lines))
            lines = []
        elif line.startswith("data:"):
            lines.append(line[5:].lstrip())


class Server:
    """One MCP server: its connection, its catalog, and whether a list_changed made the catalog stale."""

    def __init__(self, entry, base_env):
        self.name = entry["name"]
        self.ids = 0
        self.changes = 0
        self.stale = True
        self.tools = {}
        if entry["transport"] == "http":
            self.conn = HttpConnection(entry["url"], entry["credentials"]["token"], self._on_notification)
        else:
            self.conn = StdioConnection(entry["command"], entry["args"], {**base_env, **entry.get("env", {})}, self._on_notification)
        self._call("initialize", {"protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": {"name": "catsim-example-python-host", "version": "1.0.0"}})
        self.conn.notify({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _on_notification(self, message):
        if message["method"] == "notifications/tools/list_changed":
            self.changes += 1
            self.stale = True

    def _call(self, method, params):
        self.ids += 1
        answer = self.conn.request({"jsonrpc": "2.0", "id": self.ids, "method": method, "params": params})
        if "error" in answer:
            raise RuntimeError(answer["error"].get("message", "error"))
        return answer["result"]

    def refresh(self):
        """Walks tools/list page by page; a list_changed during the walk leaves the catalog stale."""
        changes = self.changes
        tools = {}
        cursor = None
        for _ in range(PAGES_MAX):
            result = self._call("tools/list", {"cursor": cursor} if cursor is not None else {})
            for tool in result["tools"]:
                tools[tool["name"]] = tool
            cursor = result.get("nextCursor")
            if not cursor:
                break
        self.tools = tools
        self.stale = self.changes != changes

    def catalog(self):
        while self.stale:
            self.refresh()
        return self.tools

    def call(self, name, arguments):
        if name not in self.catalog():
            return "refused", "no tool %s in the catalog" % name
        try:
            result = self._call("tools/call", {"name": name, "arguments": arguments})
            return ("error" if result.get("isError") else "ok"), None
        except RuntimeError as error:
            return "error", str(error)[:200]

    def close(self):
        self.conn.close()

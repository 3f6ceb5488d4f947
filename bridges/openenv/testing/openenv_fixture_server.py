#!/usr/bin/env python3
"""An OpenEnv-protocol test server, Python standard library only.

It speaks meta-pytorch/OpenEnv's HTTP routes (GET /health, /schema, /metadata, /state; POST /reset,
/step, stateless) and its WebSocket /ws message loop (reset / step / state / close in; observation /
state / error out, WSErrorCode values), with the WebSocket framing done by hand. The real OpenEnv
Python packages cannot be installed on this machine (STACK.md), so this fixture stands in for an
OpenEnv environment server in the tests, the e2e journey and the bench.

The environment is a seeded grid: reach the goal cell with `{"message": "up|down|left|right"}`.
Every handled request prints one `EVENT <name>` line on stdout, so a test can tell which routes
an episode really used (e.g. that it went over /ws, not HTTP /reset and /step).

Faults for tests, chosen by reset kwargs: `fault` = "garbage" (the next step's reply is not
JSON), "drop" (the connection is cut instead of answering the next step), "error" (the next step
answers EXECUTION_ERROR) or "exit" (the whole server process dies on the next step).

Run: python3 openenv_fixture_server.py --port 8000 [--max-sessions N] [--watch-stdin]
"""

import argparse
import base64
import hashlib
import json
import os
import random
import re
import socket
import struct
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
MOVES = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
MOVE_PATTERN = "^(up|down|left|right)$"

# What pydantic's model_json_schema() gives for these classes (OpenEnv's Action / Observation / State).
ACTION_SCHEMA = {
    "additionalProperties": False,
    "description": "One move on the grid.",
    "properties": {
        "metadata": {
            "additionalProperties": True,
            "description": "Additional metadata for the action",
            "title": "Metadata",
            "type": "object",
        },
        "message": {
            "description": "The move: up, down, left or right",
            "pattern": MOVE_PATTERN,
            "title": "Message",
            "type": "string",
        },
    },
    "required": ["message"],
    "title": "GridAction",
    "type": "object",
}
OBSERVATION_SCHEMA = {
    "additionalProperties": False,
    "properties": {
        "done": {"default": False, "title": "Done", "type": "boolean"},
        "reward": {"anyOf": [{"type": "boolean"}, {"type": "integer"}, {"type": "number"}, {"type": "null"}], "default": None, "title": "Reward"},
        "metadata": {"additionalProperties": True, "title": "Metadata", "type": "object"},
        "prompt": {"title": "Prompt", "type": "string"},
        "legal_actions": {"items": {"type": "string"}, "title": "Legal Actions", "type": "array"},
        "position": {"items": {"type": "integer"}, "title": "Position", "type": "array"},
    },
    "required": ["prompt", "legal_actions", "position"],
    "title": "GridObservation",
    "type": "object",
}
STATE_SCHEMA = {
    "additionalProperties": True,
    "properties": {
        "episode_id": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "title": "Episode Id"},
        "step_count": {"default": 0, "minimum": 0, "title": "Step Count", "type": "integer"},
    },
    "title": "State",
    "type": "object",
}

LOCK = threading.Lock()
SESSIONS = {"active": 0, "max": 1}


def event(name):
    with LOCK:
        sys.stdout.write(f"EVENT {name}\n")
        sys.stdout.flush()


class ValidationError(Exception):
    def __init__(self, errors):
        super().__init__("validation error")
        self.errors = errors


class GridEnv:
    """A seeded grid world: the seed places the goal; `size` and `max_steps` come from reset kwargs."""

    def __init__(self):
        self.episode_id = None
        self.step_count = 0
        self.size = 3
        self.max_steps = 30
        self.pos = [0, 0]
        self.goal = [2, 2]
        self.done = False
        self.fault = None

    def reset(self, seed=None, episode_id=None, size=3, max_steps=30, fault=None, **_ignored):
        rng = random.Random(seed)
        self.size = max(2, min(int(size), 12))
        self.max_steps = max(1, int(max_steps))
        cells = [[x, y] for y in range(self.size) for x in range(self.size) if [x, y] != [0, 0]]
        self.goal = rng.choice(cells)
        self.pos = [0, 0]
        self.step_count = 0
        self.done = False
        self.fault = fault
        self.episode_id = episode_id or str(uuid.uuid4())
        return self.observation(None, "A new episode.")

    def legal(self):
        out = []
        for name, (dx, dy) in MOVES.items():
            x, y = self.pos[0] + dx, self.pos[1] + dy
            if 0 <= x < self.size and 0 <= y < self.size:
                out.append(name)
        return out

    def observation(self, reward, news):
        prompt = (
            f"{news} You are at ({self.pos[0]}, {self.pos[1]}) on a {self.size}x{self.size} grid; "
            f"the goal is at ({self.goal[0]}, {self.goal[1]})."
        )
        return {
            "observation": {"prompt": prompt, "legal_actions": self.legal(), "position": list(self.pos)},
            "reward": reward,
            "done": self.done,
        }

    def step(self, move):
        if self.done:
            return self.observation(0.0, "The episode is over.")
        self.step_count += 1
        dx, dy = MOVES[move]
        x, y = self.pos[0] + dx, self.pos[1] + dy
        if 0 <= x < self.size and 0 <= y < self.size:
            self.pos = [x, y]
            news = f"You move {move}."
        else:
            news = "You bump into the wall."
        reward = 0.0
        if self.pos == self.goal:
            self.done = True
            reward = 1.0
            news += " You reached the goal!"
        elif self.step_count >= self.max_steps:
            self.done = True
            news += " Out of steps."
        return self.observation(reward, news)

    def state(self):
        return {
            "episode_id": self.episode_id,
            "step_count": self.step_count,
            "position": list(self.pos),
            "goal": list(self.goal),
            "size": self.size,
        }


def validate_action(data):
    """pydantic-style validation of GridAction (extra fields forbidden, message required + pattern)."""
    if not isinstance(data, dict):
        raise ValidationError([{"type": "model_type", "loc": [], "msg": "Input should be an object", "input": data}])
    errors = []
    for key in data:
        if key not in ("message", "metadata"):
            errors.append({"type": "extra_forbidden", "loc": [key], "msg": "Extra inputs are not permitted", "input": data[key]})
    if "message" not in data:
        errors.append({"type": "missing", "loc": ["message"], "msg": "Field required", "input": data})
    elif not isinstance(data["message"], str):
        errors.append({"type": "string_type", "loc": ["message"], "msg": "Input should be a valid string", "input": data["message"]})
    elif not re.match(MOVE_PATTERN, data["message"]):
        errors.append(
            {"type": "string_pattern_mismatch", "loc": ["message"], "msg": f"String should match pattern '{MOVE_PATTERN}'", "input": data["message"]}
        )
    if "metadata" in data and not isinstance(data["metadata"], dict):
        errors.append({"type": "dict_type", "loc": ["metadata"], "msg": "Input should be a valid dictionary", "input": data["metadata"]})
    if errors:
        raise ValidationError(errors)
    return data["message"]


# --- WebSocket framing (RFC 6455), by hand -------------------------------------------------------


def read_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    return buf


def read_message(sock):
    """The next text message (fragments joined); None on a close frame. Answers pings."""
    parts = []
    while True:
        b1, b2 = read_exact(sock, 2)
        fin, opcode = b1 & 0x80, b1 & 0x0F
        masked, length = b2 & 0x80, b2 & 0x7F
        if length == 126:
            length = struct.unpack(">H", read_exact(sock, 2))[0]
        elif length == 127:
            length = struct.unpack(">Q", read_exact(sock, 8))[0]
        mask = read_exact(sock, 4) if masked else b"\0\0\0\0"
        payload = bytearray(read_exact(sock, length))
        for i in range(length):
            payload[i] ^= mask[i % 4]
        if opcode == 0x8:
            return None
        if opcode == 0x9:
            send_frame(sock, 0xA, bytes(payload))
            continue
        if opcode == 0xA:
            continue
        parts.append(bytes(payload))
        if fin:
            return b"".join(parts).decode("utf-8")


def send_frame(sock, opcode, payload):
    header = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        header += bytes([n])
    elif n < 65536:
        header += bytes([126]) + struct.pack(">H", n)
    else:
        header += bytes([127]) + struct.pack(">Q", n)
    sock.sendall(header + payload)


def send_json(sock, value):
    send_frame(sock, 0x1, json.dumps(value).encode("utf-8"))


def error_frame(message, code, **extra):
    return {"type": "error", "data": {"message": message, "code": code, **extra}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_args):
        pass

    def reply(self, status, value):
        body = json.dumps(value).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b"{}"
        return json.loads(raw or b"{}")

    def do_GET(self):
        if self.path == "/ws" and self.headers.get("Upgrade", "").lower() == "websocket":
            return self.websocket()
        if self.path == "/health":
            event("http_health")
            return self.reply(200, {"status": "healthy"})
        if self.path == "/schema":
            event("http_schema")
            return self.reply(200, {"action": ACTION_SCHEMA, "observation": OBSERVATION_SCHEMA, "state": STATE_SCHEMA})
        if self.path == "/metadata":
            return self.reply(
                200,
                {"name": "GridEnv", "description": "Reach the goal cell of a seeded grid.", "readme_content": None, "version": "1.0.0", "author": None, "documentation_url": None},
            )
        if self.path == "/state":
            return self.reply(200, GridEnv().state())
        return self.reply(404, {"detail": "Not Found"})

    def do_POST(self):
        try:
            body = self.body()
        except ValueError:
            return self.reply(422, {"detail": [{"type": "json_invalid", "loc": ["body"], "msg": "JSON decode error"}]})
        if self.path == "/reset":
            event("http_reset")
            return self.reply(200, GridEnv().reset(**{k: v for k, v in body.items() if k != "fault"}))
        if self.path == "/step":
            event("http_step")
            try:
                move = validate_action(body.get("action"))
            except ValidationError as e:
                return self.reply(422, {"detail": e.errors})
            env = GridEnv()
            env.reset()
            return self.reply(200, env.step(move))
        return self.reply(404, {"detail": "Not Found"})

    def websocket(self):
        key = self.headers.get("Sec-WebSocket-Key", "")
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        self.send_response(101, "Switching Protocols")
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header("Sec-WebSocket-Accept", accept)
        self.end_headers()
        self.wfile.flush()
        sock = self.connection
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.close_connection = True
        with LOCK:
            full = SESSIONS["active"] >= SESSIONS["max"]
            if not full:
                SESSIONS["active"] += 1
        if full:
            send_json(sock, error_frame("Server at capacity", "CAPACITY_REACHED", active_sessions=SESSIONS["max"], max_sessions=SESSIONS["max"]))
            send_frame(sock, 0x8, struct.pack(">H", 1000))
            return
        event("ws_open")
        try:
            self.session(sock)
        except (ConnectionError, OSError):
            pass
        finally:
            with LOCK:
                SESSIONS["active"] -= 1
            event("ws_end")

    def session(self, sock):
        env = GridEnv()
        while True:
            raw = read_message(sock)
            if raw is None:
                send_frame(sock, 0x8, struct.pack(">H", 1000))
                return
            try:
                msg = json.loads(raw)
            except ValueError as e:
                send_json(sock, error_frame(f"Invalid JSON: {e}", "INVALID_JSON"))
                continue
            kind = msg.get("type", "") if isinstance(msg, dict) else ""
            if kind == "reset":
                event("ws_reset")
                data = msg.get("data") or {}
                send_json(sock, {"type": "observation", "data": env.reset(**data)})
            elif kind == "step":
                event("ws_step")
                fault, env.fault = env.fault, None
                if fault == "exit":
                    os._exit(3)
                if fault == "drop":
                    sock.shutdown(socket.SHUT_RDWR)
                    return
                if fault == "garbage":
                    send_frame(sock, 0x1, b"<html>502 Bad Gateway</html>")
                    continue
                if fault == "error":
                    send_json(sock, error_frame("the simulator crashed", "EXECUTION_ERROR"))
                    continue
                try:
                    move = validate_action(msg.get("data"))
                except ValidationError as e:
                    send_json(sock, error_frame("Invalid message", "VALIDATION_ERROR", errors=e.errors))
                    continue
                send_json(sock, {"type": "observation", "data": env.step(move)})
            elif kind == "state":
                event("ws_state")
                send_json(sock, {"type": "state", "data": env.state()})
            elif kind == "close":
                event("ws_close")
                send_frame(sock, 0x8, struct.pack(">H", 1000))
                return
            else:
                send_json(sock, error_frame(f"Unknown message type: {kind}", "UNKNOWN_TYPE"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--max-sessions", type=int, default=64)
    parser.add_argument("--watch-stdin", action="store_true", help="exit when stdin closes (the parent died)")
    args = parser.parse_args()
    SESSIONS["max"] = args.max_sessions
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    sys.stdout.write(f"LISTENING {server.server_address[1]}\n")
    sys.stdout.flush()
    if args.watch_stdin:
        def watch():
            while sys.stdin.buffer.read(1024):
                pass
            os._exit(0)

        threading.Thread(target=watch, daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

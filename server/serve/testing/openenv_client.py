#!/usr/bin/env python3
"""A stand-in for OpenEnv's EnvClient / GenericEnvClient, Python standard library only.

It sends exactly what meta-pytorch/OpenEnv's env_client.py sends over the WebSocket /ws
({"type": "reset", "data": kwargs}, {"type": "step", "data": action}, {"type": "state"},
{"type": "close"} on disconnect), with the framing done by hand (client frames masked), and reads
HTTP routes with urllib. The real client cannot be installed here (STACK.md).

Input (stdin, JSON): {"url": "http://127.0.0.1:8000", "ops": [op, ...]} where an op is
  {"http": {"method": "GET", "path": "/schema", "body": {...}?}}
  {"session": [message | {"walk": {"seed": 3, "max": 80}} | {"drop": true}, ...]}
A session opens /ws, sends each message and keeps each reply; a walk resets nothing, it steps with
{"message": <a random legal action>} from the last observation until done or `max` steps; `drop`
cuts the connection without a close message. A session otherwise ends as EnvClient.disconnect()
does: {"type": "close"}, then a close frame. Output (stdout, JSON): one result per op.
"""

import base64
import json
import os
import random
import socket
import struct
import sys
import urllib.error
import urllib.request
from urllib.parse import urlsplit


def http(url, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return {"status": r.status, "body": json.loads(r.read() or b"null")}
    except urllib.error.HTTPError as e:
        return {"status": e.code, "body": json.loads(e.read() or b"null")}


class WS:
    def __init__(self, base):
        u = urlsplit(base)
        self.sock = socket.create_connection((u.hostname, u.port), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(head.decode(errors="replace"))

    def send(self, value):
        payload = json.dumps(value).encode()
        mask = os.urandom(4)
        n = len(payload)
        header = bytes([0x81])
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("closed")
            buf += chunk
        return buf

    def recv(self):
        """The next text message as JSON; {"closed": code} on a close frame."""
        parts = []
        while True:
            b1, b2 = self.exact(2)
            opcode, n = b1 & 0x0F, b2 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self.exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self.exact(8))[0]
            payload = self.exact(n)
            if opcode == 0x8:
                return {"closed": struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None}
            if opcode in (0x9, 0xA):
                continue
            parts.append(payload)
            if b1 & 0x80:
                return json.loads(b"".join(parts).decode())

    def close(self):
        try:
            self.send({"type": "close"})
            self.sock.sendall(bytes([0x88, 0x82]) + b"\0\0\0\0" + struct.pack(">H", 1000))
        except OSError:
            pass
        self.sock.close()


def walk(ws, last, seed, limit):
    rng = random.Random(seed)
    steps = 0
    reply = last
    while steps < limit:
        obs = (reply or {}).get("data", {}).get("observation", {})
        if (reply or {}).get("data", {}).get("done"):
            break
        legal = obs.get("legal_actions") or ["look"]
        ws.send({"type": "step", "data": {"message": rng.choice(legal)}})
        reply = ws.recv()
        steps += 1
        if reply.get("type") != "observation":
            break
    return {"walk": {"steps": steps, "last": reply}}


def main():
    spec = json.load(sys.stdin)
    url = spec["url"].rstrip("/")
    out = []
    for op in spec["ops"]:
        if "http" in op:
            h = op["http"]
            out.append(http(url, h.get("method", "GET"), h["path"], h.get("body")))
            continue
        ws = WS(url)
        replies = []
        last = None
        dropped = False
        for msg in op["session"]:
            if "walk" in msg:
                r = walk(ws, last, msg["walk"].get("seed", 0), msg["walk"].get("max", 100))
                replies.append(r)
                last = r["walk"]["last"]
            elif msg.get("drop"):
                ws.sock.close()
                dropped = True
                break
            else:
                ws.send(msg)
                last = ws.recv()
                replies.append(last)
                if "closed" in last:
                    dropped = True
                    break
        if not dropped:
            ws.close()
        out.append({"session": replies})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()

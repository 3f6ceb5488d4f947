#!/usr/bin/env python3
"""Reference environment server for the `remote` bridge (protocol: bridges/remote/README.md).

The 24 game over HTTP, standard library only: combine two of the current numbers with + - * /
until one remains; success iff it is exactly 24 (exact fractions). It mirrors the studio's toy24
observations, so the toy24 scripted policies can play it too.

    python3 reference_server.py [--host 127.0.0.1] [--port 0] [--watch-stdin]

Prints `LISTENING <port>` on stdout once it accepts connections. With --watch-stdin it exits when
its stdin closes, so a parent that dies (even by SIGKILL) never leaves it behind.
"""

import argparse
import functools
import itertools
import json
import sys
import threading
import uuid
from fractions import Fraction
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

PROTOCOL_VERSION = 1
OPS = ["+", "-", "*", "/"]
MAX_EPISODES = 256
NUMBER_RE = r"^-?\d+(/\d+)?$"


def fmt(q):
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def parse_number(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, str):
        text = value.strip()
        try:
            if "/" in text:
                n, d = text.split("/", 1)
                if int(d) == 0:
                    return None
                return Fraction(int(n), int(d))
            return Fraction(int(text))
        except ValueError:
            return None
    return None


def apply(a, op, b):
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        return None
    return a / b


@functools.lru_cache(maxsize=None)
def solvable(numbers):
    """numbers: a sorted tuple of Fractions. Sub-problems repeat a lot, hence the cache."""
    if len(numbers) == 1:
        return numbers[0] == 24
    for i, j in itertools.permutations(range(len(numbers)), 2):
        rest = [n for k, n in enumerate(numbers) if k != i and k != j]
        for op in OPS:
            value = apply(numbers[i], op, numbers[j])
            if value is not None and solvable(tuple(sorted(rest + [value]))):
                return True
    return False


def fnv1a(text):
    h = 0x811C9DC5
    for ch in text.encode():
        h ^= ch
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def build_tasks():
    tasks = []
    for combo in itertools.combinations_with_replacement(range(1, 10), 4):
        if not solvable(tuple(Fraction(n) for n in combo)):
            continue
        task_id = "-".join(str(n) for n in combo)
        big = sum(1 for n in combo if n >= 7)
        kind = "easy" if big <= 1 else "medium" if big == 2 else "hard"
        tasks.append(
            {
                "id": task_id,
                "type": kind,
                "goal": f"Make 24 from {' '.join(str(n) for n in combo)} using each number exactly once.",
                "split": "test" if fnv1a(task_id) % 5 == 0 else "train",
                "difficulty": round(big / 4, 2),
            }
        )
    return tasks


TASKS = build_tasks()
TASKS_BY_ID = {t["id"]: t for t in TASKS}

STATE_SCHEMA = {
    "type": "object",
    "properties": {
        "task": {"type": "string"},
        "initial": {"type": "array", "items": {"type": "string", "pattern": NUMBER_RE}},
        "numbers": {"type": "array", "items": {"type": "string", "pattern": NUMBER_RE}},
        "history": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "a": {"type": "string"},
                    "op": {"type": "string", "enum": OPS},
                    "b": {"type": "string"},
                    "result": {"type": "string"},
                },
                "required": ["a", "op", "b", "result"],
                "additionalProperties": False,
            },
        },
        "invalidActions": {"type": "integer", "minimum": 0},
        "done": {"type": "boolean"},
        "value": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    },
    "required": ["task", "initial", "numbers", "history", "invalidActions", "done", "value"],
    "additionalProperties": False,
}

TOOLS = [
    {
        "name": "combine",
        "description": "Combine two numbers from the current list: both are removed and `a op b` is added. "
        "When one number remains the game ends; you win if it is exactly 24.",
        "parameters": {
            "type": "object",
            "properties": {
                "a": {"anyOf": [{"type": "integer"}, {"type": "string"}], "description": "a current number, e.g. 8 or \"8/3\""},
                "op": {"type": "string", "enum": OPS},
                "b": {"anyOf": [{"type": "integer"}, {"type": "string"}], "description": "a current number"},
            },
            "required": ["a", "op", "b"],
            "additionalProperties": False,
        },
    }
]


class Episode:
    def __init__(self, task, seed):
        self.task = task
        self.seed = seed
        self.numbers = [Fraction(int(n)) for n in task["id"].split("-")]
        self.initial = [fmt(n) for n in self.numbers]
        self.history = []
        self.setup_moves = 0
        self.invalid = 0
        self.done = False
        self.observation = {
            "text": f"Numbers: {' '.join(self.initial)}. Goal: make 24 using every number exactly once. "
            "Combine two numbers at a time with + - * / (tool combine {a, op, b}); the result replaces them. "
            "When one number remains the game ends.",
            "data": {"numbers": list(self.initial)},
        }

    def view(self):
        return {
            "task": self.task["id"],
            "initial": list(self.initial),
            "numbers": [fmt(n) for n in self.numbers],
            "history": [dict(h) for h in self.history],
            "invalidActions": self.invalid,
            "done": self.done,
            "value": fmt(self.numbers[0]) if self.done else None,
        }

    def admissible(self):
        if self.done:
            return []
        out = []
        for i, a in enumerate(self.numbers):
            for j, b in enumerate(self.numbers):
                if i == j:
                    continue
                for op in OPS:
                    if op in "+*" and j < i:
                        continue
                    if op == "/" and b == 0:
                        continue
                    text = f"{fmt(a)} {op} {fmt(b)}"
                    if text not in out:
                        out.append(text)
        return out

    def reply(self, reward=0.0, invalid=False):
        info = {"admissibleCommands": self.admissible()}
        if invalid:
            info["invalid"] = True
        return {
            "observation": self.observation,
            "reward": reward,
            "terminated": self.done,
            "truncated": False,
            "info": info,
            "state": self.view(),
        }

    def reject(self, message):
        if not self.done:
            self.invalid += 1
        numbers = " ".join(fmt(n) for n in self.numbers)
        self.observation = {"text": f"Invalid move: {message} Numbers: {numbers}.", "data": {"numbers": numbers.split(" ")}}
        return self.reply(invalid=True)

    def step(self, action):
        name = action.get("name")
        args = action.get("args") if isinstance(action.get("args"), dict) else {}
        if self.done:
            return self.reject("The game is over; reset to play again.")
        if name != "combine":
            return self.reject(f"Unknown tool '{name}'. The only tool is combine {{a, op, b}}.")
        op = args.get("op")
        if op not in OPS:
            return self.reject(f"Unknown operation {json.dumps(op)}: use one of + - * /.")
        a, b = parse_number(args.get("a")), parse_number(args.get("b"))
        if a is None or b is None:
            bad = args.get("a") if a is None else args.get("b")
            return self.reject(f"{json.dumps(bad)} is not a number: give an integer like 8 or a fraction like \"8/3\".")
        i = next((k for k, n in enumerate(self.numbers) if n == a), -1)
        j = next((k for k, n in enumerate(self.numbers) if k != i and n == b), -1)
        if i < 0 or j < 0:
            current = " ".join(fmt(n) for n in self.numbers)
            missing = a if i < 0 else b
            return self.reject(f"{fmt(missing)} is not available in the numbers ({current}).")
        result = apply(a, op, b)
        if result is None:
            return self.reject(f"Division by zero ({fmt(a)} / {fmt(b)}) is not allowed.")
        self.numbers = [n for k, n in enumerate(self.numbers) if k not in (i, j)] + [result]
        self.history.append({"a": fmt(a), "op": op, "b": fmt(b), "result": fmt(result)})
        self.done = len(self.numbers) == 1
        solved = self.done and result == 24
        numbers = [fmt(n) for n in self.numbers]
        ending = ""
        if self.done:
            ending = " You made 24!" if solved else f" The game is over: the last number is {fmt(result)}, not 24."
        self.observation = {
            "text": f"{fmt(a)} {op} {fmt(b)} = {fmt(result)}. Numbers: {' '.join(numbers)}.{ending}",
            "data": {"numbers": numbers},
        }
        return self.reply(reward=1.0 if solved else 0.0)

    def evaluate(self):
        success = self.done and self.numbers[0] == 24
        return {
            "success": success,
            "score": 1.0 if success else 0.0,
            "metrics": {
                "moves": len(self.history) - self.setup_moves,
                "invalidActions": self.invalid,
                "remaining": len(self.numbers),
            },
        }


class ProtocolError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


EPISODES = {}
LOCK = threading.Lock()


def episode_of(body_or_query):
    episode_id = body_or_query.get("episode_id")
    if not isinstance(episode_id, str):
        raise ProtocolError(400, "episode_id (a string) is required")
    episode = EPISODES.get(episode_id)
    if episode is None:
        raise ProtocolError(404, f"unknown episode '{episode_id}' (closed, or never reset)")
    return episode_id, episode


def handle(method, path, query, body):
    if method == "GET" and path == "/health":
        return {"status": "ok", "protocol": PROTOCOL_VERSION, "episodes": len(EPISODES)}
    if method == "GET" and path == "/schema":
        return {
            "protocol": PROTOCOL_VERSION,
            "name": "reference-24",
            "description": "Reference remote environment (Python, standard library): the 24 game over HTTP.",
            "splits": ["train", "test"],
            "textTool": None,
            "tools": TOOLS,
            "stateSchema": STATE_SCHEMA,
            "tasks": TASKS,
        }
    if method == "POST" and path == "/reset":
        task_id = body.get("task_id")
        task = TASKS_BY_ID.get(task_id)
        if task is None:
            raise ProtocolError(404, f"unknown task '{task_id}'")
        seed = body.get("seed", 0)
        episode_id = body.get("episode_id")
        if not isinstance(episode_id, str) or episode_id not in EPISODES:
            if len(EPISODES) >= MAX_EPISODES:
                raise ProtocolError(503, f"too many open episodes ({MAX_EPISODES}); close some")
            episode_id = uuid.uuid4().hex
        episode = Episode(task, seed)
        EPISODES[episode_id] = episode
        reply = episode.reply()
        return {"episode_id": episode_id, "observation": reply["observation"], "info": reply["info"], "state": reply["state"]}
    if method == "POST" and path == "/step":
        _, episode = episode_of(body)
        action = body.get("action")
        if not isinstance(action, dict) or not isinstance(action.get("name"), str):
            raise ProtocolError(400, "action must be {name, args}")
        return episode.step(action)
    if method == "GET" and path == "/state":
        _, episode = episode_of({k: v[0] for k, v in query.items()})
        return {"state": episode.view(), "observation": episode.observation}
    if method == "POST" and path == "/after_setup":
        # A Stage replayed its set-up: those moves and invalid actions are not the agent's.
        _, episode = episode_of(body)
        episode.setup_moves = len(episode.history)
        episode.invalid = 0
        return {"ok": True}
    if method == "POST" and path == "/evaluate":
        _, episode = episode_of(body)
        return episode.evaluate()
    if method == "POST" and path == "/close":
        episode_id = body.get("episode_id")
        EPISODES.pop(episode_id, None)
        return {"closed": True}
    if method == "DELETE" and path.startswith("/episodes/"):
        EPISODES.pop(path[len("/episodes/"):], None)
        return {"closed": True}
    raise ProtocolError(404, f"no route {method} {path}")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes: without this, delayed ACKs add ~40 ms per request.
    disable_nagle_algorithm = True

    def log_message(self, format, *args):  # quiet: the test output stays readable
        pass

    def _serve(self, method):
        url = urlparse(self.path)
        try:
            body = {}
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                try:
                    body = json.loads(self.rfile.read(length))
                except ValueError:
                    raise ProtocolError(400, "the body is not JSON")
                if not isinstance(body, dict):
                    raise ProtocolError(400, "the body must be a JSON object")
            with LOCK:
                status, reply = 200, handle(method, url.path, parse_qs(url.query), body)
        except ProtocolError as e:
            status, reply = e.status, {"error": str(e)}
        except Exception as e:  # a bug here must reach the client as a 500, not hang it
            status, reply = 500, {"error": f"{type(e).__name__}: {e}"}
        data = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._serve("GET")

    def do_POST(self):
        self._serve("POST")

    def do_DELETE(self):
        self._serve("DELETE")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--watch-stdin", action="store_true")
    args = parser.parse_args()
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    if args.watch_stdin:
        def watch():
            sys.stdin.read()
            server.shutdown()
        threading.Thread(target=watch, daemon=True).start()
    print(f"LISTENING {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()


if __name__ == "__main__":
    main()

"""The baseline: a bare Flask endpoint doing one XADD per POST, under the same gunicorn."""

import os

import redis
from flask import Flask, request

app = Flask(__name__)
client = redis.Redis.from_url(os.environ["REDIS_URL"])


@app.post("/xadd/<stream>")
def xadd(stream: str):
    version = client.xadd(f"bare:{stream}", {"e": request.get_data()})
    return {"id": version.decode()}, 201


@app.get("/last/<stream>")
def last(stream: str):
    entries = client.xrevrange(f"bare:{stream}", count=1)
    return {"last": entries[0][0].decode() if entries else None}


@app.get("/healthz")
def health():
    return {"status": "ok"}

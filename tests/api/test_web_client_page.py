"""The web client's page at `/`: served with the strict policy, its modules from this host
only with their types, and no module writing markup (every value is set as text)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin

from tests.api.replay_helpers import ASSET, OTHER_HOST, PAGE_TYPES
from tests.conftest import ROOT

STATIC = ROOT / "api" / "static"
IMPORT = re.compile(r'^import .* from "([^"]+)";$', re.M)
MARKUP = re.compile(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function")


def test_the_page_is_served_with_the_strict_policy(client):
    page = client.get("/")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    assert "connect-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert "<script>" not in page.get_data(as_text=True)  # no inline code


def test_every_module_the_page_loads_comes_from_this_host_with_its_type(client):
    html = client.get("/").get_data(as_text=True)
    assets = [a for a in ASSET.findall(html) if a.endswith((".js", ".css"))]  # not links, icon
    pending = [urljoin("http://localhost/", a) for a in assets]
    seen = set()
    while pending:
        url = pending.pop()
        if url in seen:
            continue
        seen.add(url)
        assert url.startswith("http://localhost/static/"), url
        res = client.get(url)
        assert res.status_code == 200, url
        assert res.mimetype == PAGE_TYPES[Path(url).suffix], url
        text = res.get_data(as_text=True)
        assert not OTHER_HOST.findall(text), url
        pending += [urljoin(url, m) for m in IMPORT.findall(text)]
    assert any(u.endswith("/static/shared/draw.js") for u in seen)  # shared with the replay
    assert any(u.endswith("/static/app/table.js") for u in seen)


def test_no_module_writes_markup():
    for path in STATIC.rglob("*.js"):
        assert not MARKUP.search(path.read_text("utf-8")), path

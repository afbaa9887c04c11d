"""A loopback stand-in for Seoul's Open API (`culturalEventInfo`), on 127.0.0.1 only.

It answers `GET /CASE/KEY/json/culturalEventInfo/START/END/`: CASE picks one of the
responders registered with `register` (unknown: 404), so one server serves many cases at
once. A responder gets the server, the request handler and the parsed `Request`, and
answers with `send`; `page` gives the portal's normal JSON page of the server's rows.
"""
import http.server
import json
import socketserver
import threading
from collections import namedtuple

# The Open API's key for each column header of the portal's CSV download. Written out here
# (as in Tests/TestSupport/APIRows.swift) so the server does not share Raon's code.
API_KEY_BY_HEADER = {
    "분류": "CODENAME", "자치구": "GUNAME", "공연/행사명": "TITLE", "날짜/시간": "DATE", "장소": "PLACE",
    "기관명": "ORG_NAME", "이용대상": "USE_TRGT", "이용요금": "USE_FEE", "출연자정보": "PLAYER",
    "프로그램소개": "PROGRAM", "기타내용": "ETC_DESC", "대표이미지": "MAIN_IMG", "신청일": "RGSTDATE",
    "시민/기관": "TICKET", "시작일": "STRTDATE", "종료일": "END_DATE", "테마분류": "THEMECODE",
    "위도(X좌표)": "LAT", "경도(Y좌표)": "LOT", "유무료": "IS_FREE", "문화포털상세URL": "HMPG_ADDR",
}


def api_rows(header, records):
    """The Open API rows of CSV records (lists of values under `header`); a header naming
    the organiser's home page (`홈페이지`) becomes ORG_LINK."""
    rows = []
    for record in records:
        row = {}
        for name, value in zip(header, record):
            key = API_KEY_BY_HEADER.get(name)
            if key is None and "홈페이지" in name:
                key = "ORG_LINK"
            if key:
                row[key] = value
        rows.append(row)
    return rows


Request = namedtuple("Request", "path case key start end")


def serve_page(api, handler, request):
    """The default responder: the portal's normal page of rows START to END."""
    api.send(handler, 200, api.page(request.start, request.end))


class LoopbackAPI:
    """A threaded HTTP server on 127.0.0.1 (a free port) serving `rows` as the Open API."""

    def __init__(self, rows):
        self.rows = rows
        self._responders = {}
        self._lock = threading.Lock()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_GET(self):
                outer._answer(self)

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def register(self, case, responder=serve_page):
        """Answers requests for CASE with `responder(api, handler, request)`; returns the
        base URL to give raon (`--api-base`)."""
        with self._lock:
            self._responders[case] = responder
        return f"http://127.0.0.1:{self.port}/{case}"

    def unregister(self, case):
        with self._lock:
            self._responders.pop(case, None)

    def stop(self):
        self.httpd.shutdown()

    def send(self, handler, status, body, ctype="application/json", headers=None):
        if isinstance(body, str):
            body = body.encode("utf-8")
        handler.send_response(status)
        handler.send_header("Content-Type", ctype)
        handler.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            handler.send_header(k, v.encode("utf-8").decode("latin-1"))
        handler.end_headers()
        handler.wfile.write(body)

    def page(self, start, end):
        """The portal's JSON page of rows START to END (1-based, inclusive)."""
        rows = self.rows[start - 1:end]
        return json.dumps({"culturalEventInfo": {"list_total_count": len(self.rows),
                                                 "RESULT": {"CODE": "INFO-000", "MESSAGE": "정상 처리되었습니다"},
                                                 "row": rows}}, ensure_ascii=False)

    def _answer(self, handler):
        parts = handler.path.split("/")
        # ['', CASE, KEY, 'json', 'culturalEventInfo', START, END, '']
        case = parts[1] if len(parts) > 1 else ""
        with self._lock:
            responder = self._responders.get(case)
        if responder is None or len(parts) < 7:
            return self.send(handler, 404, "no such case")
        try:
            start, end = int(parts[5]), int(parts[6])
        except ValueError:
            return self.send(handler, 400, "bad")
        responder(self, handler, Request(handler.path, case, parts[2], start, end))

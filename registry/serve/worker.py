"""The gunicorn worker of `registry serve`: gthread, but no thread is given to a request until its head is in.

gunicorn's gthread worker hands every accepted (or kept-alive, readable) connection to a pool thread,
which then reads the request line and headers with a blocking socket and no time limit: eight
clients that trickle header bytes hold all the threads (eight then) and the service stops (issue 15, item 1).
Here the worker's own event loop reads the head without blocking, keeps at most HEAD_TIMEOUT
seconds for it, and submits the connection to the pool only once the blank line that ends the head
(or more bytes than any valid head can have) has arrived; the thread's parser then reads those bytes
from memory. Errors the parser finds answer in the API's JSON shape (registry/web/transport_errors.py).
Why this and not gevent or a front process: docs/api-decisions.md ("Slow clients").
"""
import errno
import re
import selectors
import time
from functools import partial

from gunicorn.workers.gthread import TConn, ThreadWorker

from ..config import setting
from ..web import transport_errors
from . import malloc

# Seconds a client has to send a whole request head, from its first byte or from when a kept-alive
# connection turns readable (REGISTRY_HEAD_TIMEOUT_MS, 10 s). Generous for any real client; a slowloris is
# dropped after it.
HEAD_TIMEOUT = setting("REGISTRY_HEAD_TIMEOUT_MS") / 1000
READ_SIZE = 65536
# The blank line that ends a head; a bare LF is matched too, so the parser (not this loop) rejects it.
END_OF_HEAD = re.compile(rb"\r?\n\r?\n")


class HeadConn(TConn):
    """A gthread connection that carries the head bytes the event loop read for it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.head = bytearray()
        self.head_deadline = 0.0

    def init(self):
        """Create the parser (first request only), then give it the buffered head to read first."""
        super().init()
        if self.head:
            self.parser.unreader.unread(bytes(self.head))
            self.head = bytearray()


def max_head_bytes(cfg) -> int:
    """More than this can only be refused (414/431): hand it to the parser to say so."""
    return cfg.limit_request_line + 2 + cfg.limit_request_fields * (cfg.limit_request_field_size + 2) + 2


def head_ready(head: bytes, cfg) -> bool:
    """Whether the parser can decide on this head without reading more from the socket."""
    if END_OF_HEAD.search(head):
        return True
    first_line_too_long = cfg.limit_request_line and b"\n" not in head[:cfg.limit_request_line + 2] \
        and len(head) > cfg.limit_request_line + 2
    return bool(first_line_too_long) or len(head) > max_head_bytes(cfg)


class Worker(ThreadWorker):
    """gthread with request heads read by the event loop (bounded by HEAD_TIMEOUT) and JSON errors."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.awaiting_head = {}   # conn -> None, oldest first (deadlines grow with insertion)

    def init_process(self):
        malloc.tune()   # in the worker, after the fork and before its threads (registry/serve/malloc.py)
        super().init_process()

    def accept(self, listener):
        try:
            client_sock, client_addr = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        self.await_head(HeadConn(self.cfg, client_sock, client_addr, listener.getsockname()))

    def on_client_socket_readable(self, conn, client):
        # A kept-alive connection has a next request coming: read its head here too, not in a thread.
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self.await_head(conn)

    def enqueue_req(self, conn):
        """Submit conn to a thread, unless a pipelined next request in its buffer is still a partial head."""
        buffered = conn.parser.unreader.buf.getvalue() if conn.parser is not None else b""
        if buffered and not head_ready(buffered, self.cfg):
            conn.head = bytearray(conn.parser.unreader.take_buffered())
            self.await_head(conn)
            return
        super().enqueue_req(conn)

    def await_head(self, conn):
        """Watch conn in the event loop until its request head is complete (or it is dropped)."""
        conn.sock.setblocking(False)
        conn.head_deadline = time.monotonic() + HEAD_TIMEOUT
        self.awaiting_head[conn] = None
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_head_bytes, conn))

    def on_head_bytes(self, conn, client):
        """Read what the client sent; submit the connection to a thread once the head is whole."""
        try:
            data = client.recv(READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:   # the client went away before finishing its request
            self.drop_awaiting(conn)
            return
        conn.head += data
        if head_ready(conn.head, self.cfg):
            self.poller.unregister(client)
            del self.awaiting_head[conn]
            conn.data_ready = True
            self.enqueue_req(conn)

    def drop_awaiting(self, conn):
        """Close a connection whose head never came (or came too slowly)."""
        self.awaiting_head.pop(conn, None)
        try:
            self.poller.unregister(conn.sock)
        except (OSError, KeyError, ValueError):
            pass
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self):
        """gthread's clean-up of idle connections, plus the heads past HEAD_TIMEOUT."""
        super().murder_pending()
        now = time.monotonic()
        for conn in list(self.awaiting_head):
            if conn.head_deadline > now:
                break
            self.drop_awaiting(conn)

    def handle_error(self, req, client, addr, exc):
        """Answer an error found before (or outside) the app in the API's JSON error shape."""
        transport_errors.answer(self, req, client, addr, exc)

import pytest

from helpers import assert_error


@pytest.mark.parametrize("method,url,status,code", [
    ("get", "/no-such-page", 404, "not_found"),
    ("get", "/api/v1/nothing-here", 404, "not_found"),
    ("get", "/api/v2/models", 404, "not_found"),
    ("post", "/api/v1/models", 405, "method_not_allowed"),
    ("delete", "/api/v1/providers/meta", 405, "method_not_allowed"),
    ("put", "/api/v1/resolve?q=x", 405, "method_not_allowed"),
])
def test_routing_errors_have_the_shape(client, method, url, status, code):
    response = getattr(client, method)(url)
    assert_error(response, status, code)
    if status == 405:
        assert "GET" in response.headers["Allow"]


def test_unexpected_exception_is_a_500_without_trace(app, client, monkeypatch, caplog):
    from registry.queries import catalog

    def explode(*args, **kwargs):
        raise RuntimeError("secret internals")
    monkeypatch.setattr(catalog, "list_providers", explode)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = client.get("/api/v1/providers")
    body = assert_error(response, 500, "internal_error")
    assert "secret" not in body["error"]["message"]
    assert "secret internals" in caplog.text

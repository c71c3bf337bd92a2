// A little plain JavaScript on top of pages that work without it (registry/pages/):
// search results while typing (from /api/v1/search) and copy buttons next to ids.
"use strict";

function liveSearch(form) {
  var input = form.querySelector("input[name=q]");
  var list = form.querySelector(".results.live");
  var timer = null;
  var asked = 0;
  function show(items, note) {
    list.textContent = "";
    items.forEach(function (r) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = "/models/" + encodeURIComponent(r.slug);
      a.textContent = r.display_name;
      var badge = document.createElement("span");
      badge.className = "status status-" + r.status;
      badge.textContent = r.status;
      var where = document.createElement("span");
      where.className = "muted";
      where.textContent = " " + r.provider.name + " · " + r.family.name;
      li.append(a, " ", badge, where);
      list.append(li);
    });
    if (note) {
      var li = document.createElement("li");
      li.className = "muted";
      li.textContent = note;
      list.append(li);
    }
    list.hidden = !items.length && !note;
  }
  input.addEventListener("input", function () {
    clearTimeout(timer);
    var q = input.value.trim();
    if (!q) { show([]); return; }
    timer = setTimeout(function () {
      var mine = ++asked;
      fetch("/api/v1/search?limit=8&q=" + encodeURIComponent(q), {headers: {Accept: "application/json"}})
        .then(function (r) { return r.json().then(function (body) { return [r.ok, body]; }); })
        .then(function (answer) {
          if (mine !== asked) { return; }   // a later keystroke already asked again
          if (!answer[0]) { show([], answer[1].error ? answer[1].error.message : "Search failed."); return; }
          show(answer[1].results, answer[1].results.length ? "" : "No model matches “" + q + "”.");
        })
        .catch(function () { if (mine === asked) { show([], "Search is unavailable; press Search."); } });
    }, 150);
  });
}

function copyButtons() {
  document.querySelectorAll("button.copy").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = button.getAttribute("data-copy");
      var done = function () {
        button.textContent = "Copied";
        setTimeout(function () { button.textContent = "Copy"; }, 1500);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { button.textContent = "Select and copy"; });
      } else {
        var range = document.createRange();
        range.selectNodeContents(button.previousElementSibling);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        button.textContent = document.execCommand("copy") ? "Copied" : "Press Ctrl+C";
      }
    });
  });
}

document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("form[data-live-search]").forEach(liveSearch);
  copyButtons();
});

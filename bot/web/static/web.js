// The game page's live part (issue 28): the replay slider and the live update. The page works without it:
// the slider's form and the turn links load the turn as a page of its own.
"use strict";
(function () {
  function bind() {
    var live = document.getElementById("live");
    if (!live) { return null; }
    var slider = document.getElementById("turn");
    var board = document.getElementById("board");
    var caption = document.getElementById("caption");
    var out = document.getElementById("turn-out");
    document.documentElement.classList.add("js");
    if (slider && board) {
      var template = board.getAttribute("data-src");
      var show = function () {
        var n = parseInt(slider.value, 10);
        board.src = template.replace("{n}", String(n));
        var item = document.querySelector('#moves li[data-turn="' + n + '"]');
        if (caption) { caption.textContent = item ? item.textContent : live.getAttribute("data-setup"); }
        var items = document.querySelectorAll("#moves li");
        for (var i = 0; i < items.length; i++) {
          if (items[i] === item) { items[i].setAttribute("aria-current", "step"); }
          else { items[i].removeAttribute("aria-current"); }
        }
        if (out) { out.textContent = (out.getAttribute("data-template") || "").replace("{turn}", String(n)); }
      };
      slider.addEventListener("input", show);
      slider.addEventListener("change", show);
    }
    return live;
  }

  var live = bind();
  if (!live || !window.EventSource || !window.fetch) { return; }
  var version = parseInt(live.getAttribute("data-version"), 10);
  var busy = false;
  var again = false;

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    var url = new URL(window.location.href);
    url.searchParams.delete("turn");
    fetch(url.toString(), { cache: "no-store", credentials: "omit" }).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (text) {
      if (text) {
        var doc = new DOMParser().parseFromString(text, "text/html");
        var fresh = doc.getElementById("live");
        var old = document.getElementById("live");
        if (fresh && old) {
          old.replaceWith(document.importNode(fresh, true));
          version = parseInt(fresh.getAttribute("data-version"), 10);
          bind();
        }
      }
    }).catch(function () { /* the next event tries again */ }).then(function () {
      busy = false;
      if (again) { again = false; refresh(); }
    });
  }

  var source = new EventSource(live.getAttribute("data-events"));
  source.addEventListener("version", function (e) {
    var data;
    try { data = JSON.parse(e.data); } catch (err) { return; }
    if (typeof data.version === "number" && data.version > version) { refresh(); }
  });
})();

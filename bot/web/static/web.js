// The game page's live part (issues 28 and 35). The page works without it: the slider's form and the turn
// links load the turn as a page of its own. With it:
// - the viewer's place is theirs: the slider, the address (?turn=N, one history entry per step), the links,
//   the picture, its alt text and the scores follow the turn shown; the arrow keys, Home and End step
//   through turns anywhere but in a text field; a live update never moves the slider, the focus, the move
//   list's scroll or the turn of someone looking back: it says "3 new moves: Now"; a viewer at Now follows;
// - one live stream per browser for a game, however many tabs show it: a SharedWorker (this same file)
//   holds the EventSource and tells every tab (else each tab holds its own);
// - a dot and its label say whether the page is live; after three failures in a row the page says
//   "not live — reload to retry" and stops;
// - while the tab is hidden its title counts the moves that arrived: "(2) <game> — game #14".
"use strict";

// -- the live stream, in a SharedWorker or in the page ----------------------------------------------------
function openStream(url, tell) {
  // tell({live: "on" | "connecting" | "off", version: n}) on every change.
  var fails = 0;
  var source = new EventSource(url);
  source.addEventListener("version", function (e) {
    var data;
    try { data = JSON.parse(e.data); } catch (err) { return; }
    if (typeof data.version === "number") { tell({ live: "on", version: data.version }); }
  });
  source.onopen = function () { fails = 0; tell({ live: "on" }); };
  source.onerror = function () {
    fails += 1;
    if (fails >= 3 || source.readyState === 2) {
      source.close();
      tell({ live: "off" });
    } else {
      tell({ live: "connecting" });
    }
  };
  return source;
}

if (typeof document === "undefined") {
  // The SharedWorker of one game (its name is the stream's address): one stream for every tab.
  (function () {
    var ports = [];
    var state = { live: "connecting", version: -1 };
    var source = null;
    function post() { for (var i = 0; i < ports.length; i++) { ports[i].postMessage(state); } }
    self.onconnect = function (e) {
      var port = e.ports[0];
      ports.push(port);
      port.onmessage = function (m) {
        var d = m.data || {};
        if (d.bye) {  // a tab closed or stopped listening: the last one out closes the stream
          ports = ports.filter(function (p) { return p !== port; });
          if (!ports.length && source) { source.close(); source = null; }
          return;
        }
        if (d.url && (source === null || state.live === "off")) {  // a reload after "not live" tries again
          state = { live: "connecting", version: state.version };
          source = openStream(d.url, function (s) {
            state = { live: s.live, version: typeof s.version === "number" ? s.version : state.version };
            post();
          });
        }
        port.postMessage(state);
      };
      port.start();
    };
  })();
} else {
  (function () {
    var script = document.currentScript ? document.currentScript.src : "/static/web.js";
    var live = document.getElementById("live");
    if (!live) { return; }
    document.documentElement.classList.add("js");
    var slider = document.getElementById("turn");
    var board = document.getElementById("board");
    var caption = document.getElementById("caption");
    var bestFig = document.getElementById("bestfig");  // the analysis's best move beside the played one
    var bestImg = document.getElementById("best");
    var bestCaption = document.getElementById("best-caption");
    var out = document.getElementById("turn-out");
    var moveOf = document.getElementById("move-of");
    var news = document.getElementById("news");
    var list = document.getElementById("moves");
    var dot = document.getElementById("dot");
    var liveText = document.getElementById("livetext");
    var lang = document.documentElement.lang || "en";
    var plural = window.Intl && Intl.PluralRules ? new Intl.PluralRules(lang) : null;
    var baseTitle = document.title;
    var hiddenMoves = 0;
    var version = parseInt(live.getAttribute("data-version"), 10);
    var last = parseInt(live.getAttribute("data-last"), 10);
    var seen = last;  // the newest turn the viewer was shown at Now
    var turns = [];
    var pictured = slider ? parseInt(slider.value, 10) : last;  // the turn the picture shows

    function data(name) { return live.getAttribute("data-" + name) || ""; }
    function fill(template, values) {
      return template.replace(/\{(\w+)\}/g, function (m, k) { return k in values ? String(values[k]) : m; });
    }
    function readTurns() { try { turns = JSON.parse(data("turns")); } catch (err) { turns = []; } }
    readTurns();

    function shown() { return slider ? parseInt(slider.value, 10) : last; }
    function label(n) { return (turns[n] && turns[n][0]) || fill(data("turn-of"), { turn: n, turns: last }); }
    function href(n) { return n >= last ? data("now-href") : fill(data("href"), { n: n }); }
    function urlOf(n) {
      var url = new URL(window.location.href);
      if (n >= last) { url.searchParams.delete("turn"); } else { url.searchParams.set("turn", String(n)); }
      return url.toString();
    }

    // -- showing a turn ------------------------------------------------------------------------------------
    function show(n, keep) {  // keep: the picture of this turn stays as it is
      if (slider) { slider.max = String(last); slider.value = String(n); }
      var item = list ? list.querySelector('li[data-turn="' + n + '"]') : null;
      if (board) {
        if (!keep || n !== pictured) { board.src = fill(data("src"), { n: n, m: (turns[n] && turns[n][2]) || "" }); pictured = n; }
        board.alt = fill(data("alt"), { counter: label(n), turn: n, turns: last });
      }
      if (caption) {
        var say = item ? item.querySelector(".say") : null;
        if (say) { caption.replaceChildren.apply(caption, Array.prototype.map.call(say.childNodes, function (c) { return c.cloneNode(true); })); }
        else { caption.textContent = data(n === 0 ? "setup" : "now"); }
      }
      if (bestFig && bestImg && bestCaption) {  // [mark ("" when the best move was played), caption] or none
        var best = turns[n] && turns[n][3];
        bestFig.hidden = !best;
        if (best) {
          bestCaption.textContent = best[1];
          bestImg.hidden = !best[0];
          if (best[0]) {
            var bestSrc = fill(data("best-src"), { n: n, m: best[0] });
            if (bestImg.getAttribute("src") !== bestSrc) { bestImg.src = bestSrc; }
            bestImg.alt = best[1];
          }
        }
      }
      if (list) {
        var items = list.querySelectorAll("li");
        for (var i = 0; i < items.length; i++) {
          if (items[i] === item) { items[i].setAttribute("aria-current", "step"); }
          else { items[i].removeAttribute("aria-current"); }
        }
      }
      if (out) { out.textContent = label(n); }
      if (moveOf) { moveOf.textContent = fill(data("of"), { turn: n, turns: last }); }
      var scores = document.querySelectorAll("#scores td");
      var row = turns[n] && turns[n][1];
      if (row && row.length === scores.length) {
        for (var j = 0; j < scores.length; j++) { scores[j].textContent = String(row[j]); }
      }
      var nav = document.querySelectorAll(".turnnav a");
      var targets = [0, n - 1, n + 1, last];
      for (var k = 0; k < nav.length && k < 4; k++) {
        var target = Math.max(0, Math.min(targets[k], last));
        nav[k].href = href(target);
        if (target === n) { nav[k].setAttribute("aria-disabled", "true"); nav[k].classList.add("off"); }
        else { nav[k].removeAttribute("aria-disabled"); nav[k].classList.remove("off"); }
      }
      var langs = document.querySelectorAll(".langs a[hreflang]");
      for (var m = 0; m < langs.length; m++) {
        var u = new URL(langs[m].href);
        if (n >= last) { u.searchParams.delete("turn"); } else { u.searchParams.set("turn", String(n)); }
        langs[m].href = u.toString();
      }
      if (n >= last) { seen = last; }
      tellNews();
    }

    function go(n, push) {
      n = Math.max(0, Math.min(n, last));
      show(n);
      if (push && urlOf(n) !== window.location.href) { history.pushState({ turn: n }, "", urlOf(n)); }
    }

    function tellNews() {
      if (!news) { return; }
      var count = last - seen;
      news.replaceChildren();
      if (shown() >= last || count <= 0) { return; }
      var form = plural ? plural.select(count) : (count === 1 ? "one" : "other");
      var a = document.createElement("a");
      a.href = href(last);
      a.textContent = fill(data("new-" + form) || data("new-other"), { count: count });
      a.addEventListener("click", function (e) { e.preventDefault(); go(last, true); });
      news.appendChild(a);
    }

    if (slider) {
      slider.addEventListener("input", function () { show(shown()); });
      slider.addEventListener("change", function () { go(shown(), true); });
    }
    var nav = document.querySelectorAll(".turnnav a");
    Array.prototype.forEach.call(nav, function (a, k) {
      a.addEventListener("click", function (e) {
        e.preventDefault();
        var n = shown();
        go([0, n - 1, n + 1, last][k], true);
      });
    });
    if (list) {
      list.addEventListener("click", function (e) {
        var li = e.target.closest ? e.target.closest("li[data-turn]") : null;
        if (!li || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) { return; }
        e.preventDefault();
        go(parseInt(li.getAttribute("data-turn"), 10), true);
      });
    }
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) { return; }
      var t = e.target;
      if (t === slider) { return; }  // the slider steps itself (its change event moves the address)
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
      var n = shown();
      var to = { ArrowLeft: n - 1, ArrowRight: n + 1, Home: 0, End: last }[e.key];
      if (to === undefined) { return; }
      e.preventDefault();
      if (to !== n && to >= 0 && to <= last) { go(to, true); }
    });
    window.addEventListener("popstate", function () {
      var raw = new URL(window.location.href).searchParams.get("turn");
      show(raw === null || !/^\d+$/.test(raw) ? last : Math.min(parseInt(raw, 10), last));
    });
    history.replaceState({ turn: shown() }, "", window.location.href);

    // The move list shows its newest move, and keeps showing it while the viewer leaves it at its end.
    function atEnd() { return !list || list.scrollHeight - list.scrollTop - list.clientHeight < 4; }
    function toEnd() { if (list) { list.scrollTop = list.scrollHeight; } }
    toEnd();

    // -- the live part -----------------------------------------------------------------------------------
    function setLive(state) {
      if (data("status") !== "active" && state !== "connecting") { state = "over"; }
      if (dot) { dot.setAttribute("data-state", state); }
      if (liveText) {
        var text = data("live-" + state);
        if (liveText.textContent !== text) { liveText.textContent = text; }
        liveText.classList.toggle("quiet", state === "on" || state === "connecting");
      }
    }

    function merge(fresh) {
      var before = last;
      var follow = shown() >= before;
      var keepScroll = list ? list.scrollTop : 0;
      var keepEnd = atEnd();
      for (var i = 0; i < fresh.attributes.length; i++) {
        var at = fresh.attributes[i];
        if (at.name.indexOf("data-") === 0) { live.setAttribute(at.name, at.value); }
      }
      version = parseInt(data("version"), 10);
      last = parseInt(data("last"), 10);
      readTurns();
      // Whose turn and the result come as they are now; the scores are set for the turn shown below.
      ["glance", "result", "mine"].forEach(function (name) {
        var mine = live.querySelector("section." + name);
        var theirs = fresh.querySelector("section." + name);
        if (mine && theirs) { mine.replaceWith(document.importNode(theirs, true)); }
        else if (theirs) {
          var moves = live.querySelector("section.moves");
          live.insertBefore(document.importNode(theirs, true), name === "glance" ? live.firstChild : moves);
        } else if (mine) { mine.remove(); }
      });
      // The move list grows in place (no item the viewer holds or has focused is replaced).
      var freshList = fresh.querySelector("#moves");
      if (list && freshList) {
        var wanted = {};
        Array.prototype.forEach.call(freshList.children, function (li) {
          var turn = li.getAttribute("data-turn");
          wanted[turn] = true;
          var mine = list.querySelector('li[data-turn="' + turn + '"]');
          if (!mine) { list.appendChild(document.importNode(li, true)); }
          else if (mine.textContent !== li.textContent) {
            var say = mine.querySelector(".say"), theirs = li.querySelector(".say");
            if (say && theirs) { say.replaceWith(document.importNode(theirs, true)); }
          }
        });
        Array.prototype.forEach.call(list.querySelectorAll("li"), function (li) {
          if (!wanted[li.getAttribute("data-turn")]) { li.remove(); }
        });
        if (keepEnd) { toEnd(); } else { list.scrollTop = keepScroll; }
      }
      if (document.hidden && last > before) { hiddenMoves += last - before; }
      title();
      show(follow ? last : Math.min(shown(), last), !follow);
      if (follow && window.location.search.indexOf("turn=") >= 0) {
        history.replaceState({ turn: last }, "", urlOf(last));
      }
      if (data("status") !== "active") { stop(); }
    }

    function title() {  // "(2) …" for moves a hidden tab missed; "Your turn — …" while a signed-in seat is awaited
      var yours = data("yours") === "1" ? data("your-turn") + " — " : "";
      document.title = (hiddenMoves > 0 ? "(" + hiddenMoves + ") " : "") + yours + baseTitle;
    }
    title();
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) { hiddenMoves = 0; title(); }
    });

    // A picture refused or lost on the way (429 under a burst of requests, a dropped connection) is asked
    // for again a few times, after a growing pause, instead of staying a broken image.
    live.addEventListener("error", function (e) {
      var img = e.target;
      if (!img || img.tagName !== "IMG" || !img.src) { return; }
      var src = img.src;
      var tries = img.getAttribute("data-src-tried") === src ? parseInt(img.getAttribute("data-tries"), 10) : 0;
      if (tries >= 4) { return; }
      img.setAttribute("data-src-tried", src);
      img.setAttribute("data-tries", String(tries + 1));
      setTimeout(function () { if (img.src === src) { img.src = src; } }, 1000 * Math.pow(2, tries));
    }, true);

    if (!window.EventSource || !window.fetch) { return; }
    var busy = false;
    var again = false;

    // A refused read (429: too many at once from this address) or a failed one is tried again after its
    // Retry-After or a growing pause: the news of a version is told once, so it must not be dropped.
    var misses = 0;
    var retrying = null;
    function retryLater(r) {
      misses += 1;
      var after = r && parseFloat(r.headers.get("Retry-After"));
      var ms = (after > 0 ? after * 1000 : 500 * Math.pow(2, Math.min(misses, 6))) + Math.random() * 250;
      if (retrying === null && data("status") === "active") {
        retrying = setTimeout(function () { retrying = null; refresh(); }, ms);
      }
    }
    function refresh() {
      if (busy) { again = true; return; }
      busy = true;
      var url = new URL(window.location.href);
      url.searchParams.delete("turn");
      var answer = null;
      // A read that hangs (a connection lost on the way) is given up after a while and tried again, so the
      // page never stays behind with its next read waiting on it.
      var abort = window.AbortController ? new AbortController() : null;
      var timer = abort ? setTimeout(function () { abort.abort(); }, 20000) : null;
      fetch(url.toString(), {
        cache: "no-store", credentials: data("seat") ? "same-origin" : "omit", signal: abort ? abort.signal : undefined
      }).then(function (r) {
        answer = r;
        return r.ok ? r.text() : null;
      }).then(function (text) {
        if (!text) { retryLater(answer); return; }
        misses = 0;
        var fresh = new DOMParser().parseFromString(text, "text/html").getElementById("live");
        if (fresh && parseInt(fresh.getAttribute("data-version"), 10) >= version) { merge(fresh); }
      }).catch(function () { retryLater(answer); }).then(function () {
        if (timer !== null) { clearTimeout(timer); }
        busy = false;
        if (again) { again = false; refresh(); }
      });
    }

    function heard(state) {
      setLive(state.live);
      if (typeof state.version === "number") {  // board.js (a seat's own page) reads its choices again
        live.dispatchEvent(new CustomEvent("cityversion", { detail: { version: state.version } }));
      }
      if (typeof state.version === "number" && state.version > version) { refresh(); }
    }

    var events = new URL(data("events"), window.location.href).toString();
    var stopper = null;
    function stop() { if (stopper) { stopper(); stopper = null; } setLive("over"); }
    if (data("status") !== "active") { setLive("over"); return; }
    setLive("connecting");
    if (window.SharedWorker) {
      try {
        var worker = new SharedWorker(script, { name: events });
        worker.port.onmessage = function (m) { heard(m.data || {}); };
        worker.port.start();
        worker.port.postMessage({ url: events });
        window.addEventListener("pagehide", function () { worker.port.postMessage({ bye: true }); });
        stopper = function () { worker.port.postMessage({ bye: true }); worker.port.close(); };
        return;
      } catch (err) { /* no shared worker here: the page holds its own stream */ }
    }
    var source = openStream(events, heard);
    stopper = function () { source.close(); };
  })();
}

// The players' time banks (issue 41): a running bank counts down to the moment it runs out, every second,
// from this browser's clock; the page brings the moment again with every move.
if (typeof document !== "undefined") {
  (function () {
    function two(n) { return (n < 10 ? "0" : "") + n; }
    function tick() {
      var clocks = document.querySelectorAll("time[data-runs-out]");
      for (var i = 0; i < clocks.length; i++) {
        var left = Math.max(0, Math.floor((parseInt(clocks[i].getAttribute("data-runs-out"), 10) - Date.now()) / 1000));
        var text = Math.floor(left / 3600) + ":" + two(Math.floor(left / 60) % 60) + ":" + two(left % 60);
        if (clocks[i].textContent !== text) { clocks[i].textContent = text; }
      }
    }
    if (document.querySelector("time[data-runs-out]") || document.getElementById("live")) {
      tick();
      setInterval(tick, 1000);
    }
  })();
}

/* The board as a place to tap (issue 38). On a signed-in seat's page (<main id="live" data-seat="N"
   data-play="{base}/play.json?lang=xx">) this script reads play.json ({version, seat, csrf, play}), shows the
   seat's own picture ({base}/play.png, in the page's language as play.json and the move's answer) and lays a button over each region of the current step (scaled
   with the picture's shown size, the step's zoom box enlarged to the frame's width), plus plain buttons
   for the choices that have no place on the picture. A chosen move is shown (its targets lit, its
   sentence) before it is sent: Confirm posts it to {base}/move with the game's version, the CSRF token
   and an idempotency key made once per chosen move (kept for retries of that move); Back takes a step
   back. Every text comes from play.json (the catalogue). web.js tells of new versions with a
   "cityversion" event on #live; play.json is read again then. No inline script or style is needed. */
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !live.getAttribute("data-play")) { return; }
  var playUrl = new URL(live.getAttribute("data-play"), window.location.href);
  var base = playUrl.toString().replace(/play\.json(?:[?#].*)?$/, "");
  var lang = playUrl.searchParams.get("lang");  // the page's language, for the picture and the move's answer
  var query = lang ? "lang=" + encodeURIComponent(lang) : "";
  var styles = document.createElement("link");
  styles.rel = "stylesheet";
  styles.href = "/static/board.css";
  document.head.appendChild(styles);

  var section = document.getElementById("play");
  if (!section) {
    section = document.createElement("section");
    section.id = "play";
    live.insertBefore(section, live.firstChild);
  }
  section.className = "play";
  section.hidden = true;
  var heading = el("h2", "playhead");
  var prompt = el("p", "playprompt");
  prompt.setAttribute("aria-live", "polite");
  var frame = el("div", "playframe");
  var picture = el("img", "playpic");
  picture.alt = "";
  var layer = el("div", "playlayer");
  frame.appendChild(picture);
  frame.appendChild(layer);
  var buttons = el("div", "playbuttons");
  var said = el("p", "playsaid");
  said.setAttribute("role", "status");
  var problem = el("p", "playerror");
  problem.setAttribute("role", "alert");
  section.appendChild(heading);
  section.appendChild(prompt);
  section.appendChild(frame);
  section.appendChild(said);
  section.appendChild(buttons);
  section.appendChild(problem);

  var version = null;
  var csrf = "";
  var play = null;
  var path = [];     // the options chosen so far (each leads to a next step)
  var chosen = null; // the option that ends the move, shown before it is sent
  var key = "";      // the idempotency key of the chosen move
  var sending = false;
  var loading = false;
  var again = false;

  function el(tag, cls) { var e = document.createElement(tag); if (cls) { e.className = cls; } return e; }
  function text(name) { return (play && play.texts && play.texts[name]) || ""; }
  function step() { return path.length ? path[path.length - 1].next : play.root; }
  function region(id) {
    for (var i = 0; i < play.regions.length; i++) { if (play.regions[i].id === id) { return play.regions[i]; } }
    return null;
  }
  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  var misses = 0;
  var retrying = null;
  function retryLater(r) {  // a refused (429) or failed read is tried again: the version's news came once
    misses += 1;
    var after = r && parseFloat(r.headers.get("Retry-After"));
    var ms = (after > 0 ? after * 1000 : 500 * Math.pow(2, Math.min(misses, 6))) + Math.random() * 250;
    if (retrying === null && misses <= 12) { retrying = setTimeout(function () { retrying = null; load(); }, ms); }
  }

  function load() {
    if (loading) { again = true; return; }
    loading = true;
    var answer = null;
    var abort = window.AbortController ? new AbortController() : null;  // a read that hangs is tried again
    var timer = abort ? setTimeout(function () { abort.abort(); }, 20000) : null;
    fetch(playUrl.toString(), { cache: "no-store", credentials: "same-origin", signal: abort ? abort.signal : undefined }).then(function (r) {
      answer = r;
      return r.ok ? r.json() : null;
    }).then(function (body) {
      if (!body) { retryLater(answer); return; }
      misses = 0;
      if (body.version === version) { return; }
      version = body.version;
      csrf = body.csrf || "";
      play = body.play || null;
      path = [];
      chosen = null;
      key = "";
      problem.textContent = "";
      if (play && play.width) { picture.src = base + "play.png?v=" + encodeURIComponent(String(version)) + (query ? "&" + query : ""); }
      show();
    }).catch(function () { retryLater(answer); }).then(function () {
      if (timer !== null) { clearTimeout(timer); }
      loading = false;
      if (again) { again = false; load(); }
    });
  }

  function button(label, cls, act) {
    var b = el("button", cls);
    b.type = "button";
    b.textContent = label;
    b.addEventListener("click", act);
    return b;
  }

  function place(node, box, zoom, scale) {
    node.style.left = ((box[0] - zoom[0]) * scale) + "px";
    node.style.top = ((box[1] - zoom[1]) * scale) + "px";
    node.style.width = ((box[2] - box[0]) * scale) + "px";
    node.style.height = ((box[3] - box[1]) * scale) + "px";
  }

  function show() {
    section.hidden = !play;
    // The page's own picture of the seat is the same board: hidden (with its heading) while the board is shown,
    // by a class on #live that web.js's merge of a new version keeps (it replaces the section itself).
    live.classList.toggle("playing", !!play);
    if (!play) { layer.replaceChildren(); buttons.replaceChildren(); return; }
    var now = step();
    heading.textContent = text("your_move");
    picture.alt = now.prompt;
    prompt.textContent = chosen ? text("chosen") : now.prompt;
    said.textContent = sending ? text("sending") : (chosen ? chosen.sentence : "");
    frame.hidden = !play.width;  // a game without pictures: buttons only
    var zoom = now.zoom || [0, 0, play.width || 1, play.height || 1];
    var width = frame.clientWidth || section.clientWidth || play.width || 1;
    var scale = width / (zoom[2] - zoom[0]);
    frame.style.height = ((zoom[3] - zoom[1]) * scale) + "px";
    picture.style.width = (play.width * scale) + "px";
    picture.style.left = (-zoom[0] * scale) + "px";
    picture.style.top = (-zoom[1] * scale) + "px";
    layer.replaceChildren();
    buttons.replaceChildren();
    var lit = chosen ? chosen.marks : [];
    path.forEach(function (o) { lit = lit.concat(o.marks); });
    lit.forEach(function (id) {
      var r = region(id);
      if (r) { var mark = el("div", "playmark"); place(mark, r.box, zoom, scale); layer.appendChild(mark); }
    });
    if (!chosen) {
      now.options.forEach(function (option) {
        var r = option.region ? region(option.region) : null;
        var b = button(r ? "" : option.label, r ? "playtarget" : "playchoice", function () { pick(option); });
        b.setAttribute("aria-label", option.label);
        b.setAttribute("data-option", option.id);
        if (r) { place(b, r.box, zoom, scale); layer.appendChild(b); } else { buttons.appendChild(b); }
      });
    } else {
      var ok = button(text("confirm"), "playconfirm", confirm);
      ok.disabled = sending;
      buttons.appendChild(ok);
    }
    if (chosen || path.length) {
      var back = button(text("back"), "playback", goBack);
      back.disabled = sending;
      buttons.appendChild(back);
    }
  }

  function pick(option) {
    problem.textContent = "";
    if (option.next) { path.push(option); } else { chosen = option; key = newKey(); }
    show();
    var first = section.querySelector(chosen ? ".playconfirm" : ".playtarget, .playchoice");
    if (first) { first.focus(); }
  }

  function goBack() {
    problem.textContent = "";
    if (chosen) { chosen = null; key = ""; } else { path.pop(); }
    show();
    var first = section.querySelector(".playtarget, .playchoice");
    if (first) { first.focus(); }
  }

  function confirm() {
    if (!chosen || sending) { return; }
    sending = true;
    show();
    fetch(base + "move" + (query ? "?" + query : ""), {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ version: version, move: chosen.move, key: key })
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (body) { return { ok: r.ok, body: body }; });
    }).then(function (answer) {
      sending = false;
      if (answer.ok && answer.body.ok) {
        if (version !== null && version >= answer.body.version) { show(); return; }  // the news came first
        play = null;
        chosen = null;
        show();
        load();
        return;
      }
      show();
      problem.textContent = (answer.body && answer.body.error) || text("failed");
    }).catch(function () {
      sending = false;
      show();
      problem.textContent = text("failed");
    });
  }

  live.addEventListener("cityversion", function (e) {
    if (!e.detail || e.detail.version !== version) { load(); }
  });
  window.addEventListener("resize", function () { if (play) { show(); } });
  picture.addEventListener("load", function () { if (play) { show(); } });
  load();
})();

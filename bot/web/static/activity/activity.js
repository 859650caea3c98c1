/* The board as a Discord Activity (issue 39), on the Activity's own page (<main id="activity">), with the
   Embedded App SDK's build loaded before it (window.DiscordSDK, static/activity/discord-sdk.js). It runs the
   SDK's ready(), then authorize (scope identify) for a code, which it posts to api/token (relative: Discord's
   proxy may serve the page under a path of its own); the answer carries the access token, which goes to the
   SDK's authenticate and nowhere else (never stored), and the game to open: the live game of the Activity's
   channel, opened in this page's frame (#activity-game, the same game page, board, moves and live stream as
   a signed-in browser's), or a short list of the user's games. A user who refuses consent gets the channel's
   public board (api/public) and one sentence. The instance's participants (the SDK's command and its update
   event) are listed above the board; the layout and orientation events mark the page (data-layout,
   data-orientation) for its style. Every text comes from the page's data-t-* attributes (the catalogue). */
(function () {
  "use strict";
  var main = document.getElementById("activity");
  if (!main) { return; }
  var status = document.getElementById("activity-status");
  var people = document.getElementById("activity-people");
  var peopleList = document.getElementById("activity-people-list");
  var gamesBox = document.getElementById("activity-games");
  var gamesList = document.getElementById("activity-games-list");
  var frame = document.getElementById("activity-game");
  var lang = main.getAttribute("data-lang") || "en";
  var me = null;

  function text(name) { return main.getAttribute("data-t-" + name) || ""; }
  function say(name, extra) {
    status.textContent = text(name) + (extra ? " " + extra : "");
    main.setAttribute("data-state", name);
  }

  var query = new URLSearchParams(window.location.search);
  if (!window.DiscordSDK || !query.get("frame_id") || !query.get("instance_id") || !query.get("platform")) {
    say("outside");
    return;
  }
  var sdk;
  try {
    sdk = new window.DiscordSDK(main.getAttribute("data-client-id"), { disableConsoleLogOverride: true });
  } catch (e) {
    say("outside");
    return;
  }
  main.setAttribute("data-platform", sdk.platform);

  function post(path, body) {
    return fetch(path + "?lang=" + encodeURIComponent(lang), {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (b) { return { ok: r.ok, body: b }; });
    });
  }

  function open(url) {
    gamesBox.hidden = true;
    frame.hidden = false;
    frame.src = url;
  }

  function listGames(games) {
    gamesList.replaceChildren();
    games.forEach(function (g) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = g.url;
      a.textContent = g.title;
      a.addEventListener("click", function (e) { e.preventDefault(); open(g.url); });
      li.appendChild(a);
      gamesList.appendChild(li);
    });
    gamesBox.hidden = false;
  }

  function showPeople(list) {
    peopleList.replaceChildren();
    (list || []).forEach(function (p) {
      var li = document.createElement("li");
      li.textContent = p.nickname || p.global_name || p.username || "?";
      li.setAttribute("data-user", p.id);
      if (p.id === me) { li.textContent += " " + text("you"); li.className = "me"; }
      peopleList.appendChild(li);
    });
    people.hidden = !peopleList.firstChild;
  }

  function follow() {
    // Who else has this Activity open, now and as they come and go; the layout and orientation, for the style.
    sdk.commands.getInstanceConnectedParticipants().then(function (r) { showPeople(r.participants); })
      .catch(function () { /* the list stays as it is */ });
    sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", function (e) { showPeople(e.participants); })
      .catch(function () { /* no live list */ });
    sdk.subscribe("ACTIVITY_LAYOUT_MODE_UPDATE", function (e) { main.setAttribute("data-layout", String(e.layout_mode)); })
      .catch(function () { /* not on this platform */ });
    sdk.subscribe("ORIENTATION_UPDATE", function (e) {
      main.setAttribute("data-orientation", String(e.screen_orientation));
    }).catch(function () { /* not on this platform */ });
  }

  function watchOnly() {
    // Consent refused: the channel's public board and one sentence why they cannot play.
    say("refused");
    post("api/public", { instance_id: sdk.instanceId }).then(function (answer) {
      if (answer.ok && answer.body.game) { open(answer.body.game); }
    }).catch(function () { /* the sentence stays */ });
  }

  sdk.ready().then(function () {
    say("signing-in");
    return sdk.commands.authorize({
      client_id: sdk.clientId,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"]
    }).then(function (r) { return r.code; }, function () { return null; });
  }).then(function (code) {
    if (code === null) { watchOnly(); return null; }
    return post("api/token", { code: code, instance_id: sdk.instanceId }).then(function (answer) {
      if (!answer.ok || !answer.body.access_token) {
        say("failed", answer.body && answer.body.error);
        return null;
      }
      var token = answer.body.access_token;
      delete answer.body.access_token;
      me = answer.body.user && answer.body.user.id;
      return sdk.commands.authenticate({ access_token: token }).then(function () {
        token = null;
        follow();
        if (answer.body.game) {
          say("opening");
          open(answer.body.game);
        } else {
          var games = answer.body.games || [];
          say(games.length ? "no-game" : "none");
          if (games.length) { listGames(games); }
        }
      });
    });
  }).catch(function () { say("failed"); });
})();

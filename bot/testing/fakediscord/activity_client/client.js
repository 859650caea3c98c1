/* A stand-in Discord client for Activities (issue 39): the parent page that frames an Activity's URL (#discord-frame,
   with the query Discord adds: instance_id, channel_id, guild_id, frame_id, platform) and answers the Embedded
   App SDK's postMessage protocol as Discord's client does (client.html, with its #standin-config), as far as the Activity uses it:

   - [0 HANDSHAKE, {v: 1, client_id, frame_id, ...}] from the frame: checked (the version, this Activity's
     client id and frame id), answered by a READY dispatch [1, {cmd: "DISPATCH", evt: "READY", data: ...}];
   - [1 FRAME, {cmd, args, nonce}] commands, each answered [1, {cmd, evt: null, nonce, data}], or with an ERROR
     event of the same nonce: AUTHORIZE (a code from the test, window.standinAuthorize, which asks the fake
     Discord's OAuth2 for one; null: the user refuses consent), AUTHENTICATE (the access token checked by the
     test, window.standinAuthenticate), GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS, SUBSCRIBE and
     UNSUBSCRIBE; anything else is an ERROR;
   - window.standin.participants(list): the participants change, dispatched to a subscribed frame
     (ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE); window.standin.event(evt, data): any other event, to a frame
     subscribed to it (ACTIVITY_LAYOUT_MODE_UPDATE, ORIENTATION_UPDATE).

   Every message is recorded in window.standin.log for the test. Messages whose origin is not the frame's, or
   whose source is not the frame's window, are dropped, as Discord's client drops them. */
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("standin-config").textContent);
  var frame = document.createElement("iframe");  // made here, so the listener below hears its first message
  frame.id = "discord-frame";
  frame.title = "Activity";
  var activityOrigin = new URL(config.url).origin;
  var subscribed = {};
  var participants = config.participants || [];
  var log = [];

  function send(message) {
    log.push({ to: "frame", message: message });
    frame.contentWindow.postMessage(message, activityOrigin);
  }
  function reply(cmd, nonce, data) { send([1, { cmd: cmd, evt: null, nonce: nonce, data: data }]); }
  function refuse(cmd, nonce, code, text) {
    send([1, { cmd: cmd, evt: "ERROR", nonce: nonce, data: { code: code, message: text } }]);
  }
  function dispatch(evt, data) { send([1, { cmd: "DISPATCH", evt: evt, nonce: null, data: data }]); }

  function handshake(payload) {
    if (payload.v !== 1 || payload.client_id !== config.client_id || payload.frame_id !== config.frame_id) {
      send([2, { code: 4000, message: "bad handshake" }]);
      return;
    }
    dispatch("READY", {
      v: 1,
      config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" },
      user: config.user
    });
  }

  function command(payload) {
    var cmd = payload.cmd, nonce = payload.nonce, args = payload.args || {};
    if (cmd === "AUTHORIZE") {
      if (args.client_id !== config.client_id || (args.scope || []).indexOf("identify") < 0) {
        refuse(cmd, nonce, 4009, "invalid client or scope");
        return;
      }
      window.standinAuthorize(args.client_id).then(function (code) {
        if (code) { reply(cmd, nonce, { code: code }); } else { refuse(cmd, nonce, 5000, "The user cancelled"); }
      });
    } else if (cmd === "AUTHENTICATE") {
      window.standinAuthenticate(args.access_token || "").then(function (user) {
        if (!user) { refuse(cmd, nonce, 4006, "Invalid token"); return; }
        reply(cmd, nonce, {
          access_token: args.access_token,
          user: user,
          scopes: ["identify"],
          expires: new Date(Date.now() + 604800000).toISOString(),
          application: { id: config.client_id, name: "City builders", description: "", icon: null }
        });
      });
    } else if (cmd === "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS") {
      reply(cmd, nonce, { participants: participants });
    } else if (cmd === "SUBSCRIBE" || cmd === "UNSUBSCRIBE") {
      subscribed[payload.evt] = cmd === "SUBSCRIBE";
      reply(cmd, nonce, { evt: payload.evt });
    } else {
      refuse(cmd, nonce, 1000, "not supported by the stand-in");
    }
  }

  window.addEventListener("message", function (event) {
    if (event.source !== frame.contentWindow || event.origin !== activityOrigin) { return; }
    log.push({ from: "frame", message: event.data });
    if (!Array.isArray(event.data)) { return; }
    var opcode = event.data[0], payload = event.data[1] || {};
    if (opcode === 0) { handshake(payload); } else if (opcode === 1) { command(payload); }
  });

  frame.src = config.url;
  document.getElementById("discord-stage").appendChild(frame);

  window.standin = {
    log: log,
    subscribed: subscribed,
    event: function (evt, data) {  // another event to a subscribed frame (a layout or orientation change)
      if (subscribed[evt]) { dispatch(evt, data); }
      return !!subscribed[evt];
    },
    participants: function (list) {
      participants = list;
      if (subscribed.ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE) {
        dispatch("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", { participants: list });
      }
    }
  };
})();

/* Munchkin table page: the connection. Sending (a move on its way holds the others back), the WebSocket, reconnecting
   and the banner that says so, or says why the page stopped trying. Plain ES2020, no build step. */
"use strict";

const Conn = (() => {
  const { el, fill } = M;
  const { $, tableId, token, S, isSpectator, showError } = Page;

  // ------------------------------------------------------------------ sending
  function send(obj) {
    if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
      showError("Not connected right now: your move was not sent. Reconnecting…");
      return false;
    }
    S.ws.send(JSON.stringify(obj));
    return true;
  }

  function act(text) {
    text = (text || "").trim();
    if (!text) return;
    if (isSpectator()) {
      showError("You are watching: spectators cannot act.");
      return;
    }
    if (send({ type: "act", action: text, version: S.version })) {
      setPending(true);
      S.filter = null;
    }
  }

  function setPending(on) {
    S.pending = on;
    clearTimeout(S.pendingTimer);
    if (on) S.pendingTimer = setTimeout(() => setPending(false), 4000);
    syncDisabled();
  }

  /** Moves cannot be sent while one is on its way or while the connection is down. */
  const blocked = () => S.pending || !S.connected;

  function syncDisabled() {
    document.body.classList.toggle("pending", S.pending);
    document.body.classList.toggle("offline", !S.connected);
    for (const b of document.querySelectorAll("button.action")) b.disabled = blocked();
    $("action-send").disabled = !S.connected;
    const more = $("more-time");
    if (more) more.disabled = !S.connected || more.dataset.used === "1";
  }

  // The banner keeps one "Retry now" button (so keyboard focus survives the per-second update).
  const connText = el("span", { class: "conn-text" });
  const retryBtn = el("button", { type: "button", class: "small", id: "retry-now" }, "Retry now");
  retryBtn.addEventListener("click", () => {
    clearTimeout(S.retryTimer);
    connect();
  });

  const connSecs = el("span", { class: "conn-secs", "aria-hidden": "true" });
  let connKey = "";

  function renderConn() {
    const box = $("conn-status");
    if (S.connected) {
      box.hidden = true;
      box.className = "conn-status";
      connKey = "";
      return;
    }
    box.hidden = false;
    if (S.refused) {
      // no more tries: say why and what a person can do instead (shown once, not re-rendered each second)
      if (connKey === "refused") return;
      connKey = "refused";
      box.className = "conn-status down refused";
      const lobby = el("a", { href: "/", id: "refused-lobby" }, "go to the lobby");
      const watchHref = `/table/${encodeURIComponent(tableId)}`; // no token: a spectator's view
      const watch = el("a", { href: watchHref, id: "refused-watch" }, "watch this table as a spectator");
      const said = S.refused.said ? ` (the server says: ${S.refused.said})` : "";
      if (FINAL_CLOSE[S.refused.code] === "token") {
        fill(
          box,
          el(
            "p",
            { class: "conn-text", id: "refused-text" },
            el("strong", null, "⚠ This seat link does not work"),
            `${said}, so the page has stopped trying to connect. `,
            "Ask the person who created the table to send you your seat's link again, or ",
            watch,
            ", or ",
            lobby,
            "."
          )
        );
      } else {
        fill(
          box,
          el(
            "p",
            { class: "conn-text", id: "refused-text" },
            el("strong", null, "⚠ This table does not exist"),
            `${said}: it may have expired after standing idle, so the page has stopped trying to connect. You can `,
            lobby,
            " to find or create another."
          )
        );
      }
      return;
    }
    box.className = "conn-status down";
    if (!box.contains(retryBtn)) fill(box, connText, retryBtn);
    const secs = Math.max(0, Math.ceil((S.retryAt - Date.now()) / 1000));
    connSecs.textContent = S.retryAt && secs > 0 ? ` Next try in ${secs} s.` : " Trying now.";
    const first = !S.everConnected && !S.retryAt && !S.fatal;
    const key = `${first}|${S.everConnected}|${S.fatal}`;
    if (key === connKey) return; // only the seconds changed: do not re-announce the banner
    connKey = key;
    retryBtn.hidden = first;
    if (first) {
      fill(connText, "Connecting to the table…");
      return;
    }
    fill(
      connText,
      el("strong", null, "⚠ Reconnecting…"),
      " ",
      S.fatal || (S.everConnected ? "The connection to the table was lost." : "The table cannot be reached yet."),
      connSecs
    );
  }

  // ------------------------------------------------------------------ socket
  function wsUrl() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${encodeURIComponent(tableId)}${token ? "?token=" + encodeURIComponent(token) : ""}`;
  }

  // Close codes after which reconnecting cannot help (docs/server.md): 4403 a seat token not valid at
  // this table, 4404 no such table (never made, or expired).
  const FINAL_CLOSE = { 4403: "token", 4404: "table" };

  function connect() {
    if (S.refused) return; // the server said no for good: "Retry now" and timers stay quiet
    clearTimeout(S.retryTimer);
    S.retryAt = 0;
    S.refusedWith = "";
    if (S.ws) {
      S.ws.onclose = null;
      S.ws.onmessage = null;
      try {
        S.ws.close();
      } catch (_) {
        /* already closed */
      }
    }
    let ws;
    try {
      ws = new WebSocket(wsUrl());
    } catch (err) {
      scheduleReconnect("Could not open the connection.");
      return;
    }
    S.ws = ws;
    renderConn();
    ws.onopen = () => {
      S.firstState = true;
    };
    ws.onmessage = (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch (_) {
        return;
      }
      Table.onMessage(m); // table.js
    };
    ws.onclose = (ev) => {
      if (S.ws !== ws) return;
      if (S.connected) S.lostAt = Date.now();
      S.connected = false;
      S.ws = null;
      setPending(false); // also disables the moves until the connection is back
      if (FINAL_CLOSE[ev.code]) {
        // a bad seat token or a table that is gone: trying again cannot help, so stop and say what to do
        clearTimeout(S.retryTimer);
        S.retryAt = 0;
        S.refused = { code: ev.code, said: S.refusedWith || ev.reason || "" };
        renderConn();
        return;
      }
      let why = "";
      const refusal = S.refusedWith || ev.reason || "code " + ev.code;
      if (ev.code >= 4000 && ev.code < 5000) why = `The server refused: ${refusal}.`;
      else if (ev.reason) why = `Closed: ${ev.reason}.`;
      scheduleReconnect(why);
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  function scheduleReconnect(why) {
    S.connected = false;
    S.fatal = why || "";
    const delay = S.fatal.startsWith("The server refused") ? 5000 : S.backoff;
    S.backoff = Math.min(S.backoff * 2, 5000);
    S.retryAt = Date.now() + delay;
    clearTimeout(S.retryTimer);
    S.retryTimer = setTimeout(connect, delay);
    renderConn();
  }

  setInterval(() => {
    if (!S.connected) renderConn();
  }, 1000);
  setInterval(() => {
    if (S.connected) send({ type: "ping" });
  }, 25000);

  return { send, act, setPending, blocked, syncDisabled, renderConn, connect };
})();

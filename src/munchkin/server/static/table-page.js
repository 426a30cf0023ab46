/* Munchkin table page: what every part of the page shares. Where we are, the words for the game's moments, the
   page's state (S) and small helpers over it. Plain ES2020, no build step; the table-*.js files and table.js use it. */
"use strict";

const Page = (() => {
  const { el, fill } = M;
  const $ = (id) => document.getElementById(id);

  // ------------------------------------------------------------------ where we are
  const pathMatch = location.pathname.match(/\/table\/([^/]+)\/?$/);
  const tableId = pathMatch ? decodeURIComponent(pathMatch[1]) : "";
  const query = new URLSearchParams(location.search);
  const token = query.get("token") || "";
  const seatParam = query.get("seat");

  // ------------------------------------------------------------------ words
  const PHASE_WORDS = {
    setup: "Creating characters",
    listen: "Listening at the door",
    start: "Start of the turn",
    kick: "The door is open",
    door: "Look for trouble or loot the room",
    after: "After the fight or the loot",
    charity: "Charity",
    end: "End of the turn",
  };
  /** A fight under way, named ("Fighting the Gazebo"): the phase stays at the door that led to it. */
  function fightWords(v) {
    const ms = (v.combat && v.combat.monsters) || [];
    if (!ms.length) return "";
    const names = ms.map((m) => m.monster);
    return "Fighting " + (names.length === 1 ? names[0] : names.slice(0, -1).join(", ") + " and " + names[names.length - 1]);
  }
  const PROMPT_WORDS = {
    main: "turn moves",
    drawn: "keep or play the card drawn",
    window: "answers to the fight",
    losing: "losing: ask for help or run away",
    help: "an answer to a call for help",
    curse_window: "answers to a Curse",
    run: "running away",
    rolled: "answers to a die roll",
    caught: "caught: a card before the Bad Stuff, or pass",
    choose: "choosing a card",
    loot_body: "looting a body",
    pick: "picking Treasures",
    charity: "Charity",
    offer: "an answer to an offer",
    end_window: "any-time plays before the next turn",
    before: "a choice a card or rule offers",
  };
  const WINDOW_WORDS = {
    window: "Combat: play a card into the fight, or pass.",
    curse_window: "A Curse is about to strike: cancel it, or pass.",
    rolled: "A die was rolled: answer the roll, or pass.",
    end_window: "Before the next turn: play any-time cards, or pass.",
    before: "A card or rule offers a choice: make it under Your moves.",
    help: "You were asked for help: accept or refuse.",
    offer: "An offer awaits your answer.",
  };
  const WINDOW_TITLES = {
    window: "Combat responses",
    curse_window: "A Curse in flight",
    rolled: "The die is cast",
    end_window: "Before the next turn",
  };

  // ------------------------------------------------------------------ state
  const S = {
    ws: null,
    connected: false,
    everConnected: false,
    backoff: 500,
    retryAt: 0,
    retryTimer: null,
    firstState: true,
    hello: null,
    msg: null, // the last state message
    version: null,
    log: [],
    logRendered: 0,
    filter: null, // {type: "card", id, name} | {type: "name", name}
    pending: false,
    pendingTimer: null,
    windowDeadline: 0,
    holdDeadlines: [], // performance.now() times each hold ends, in the order of window.held_by
    botDeadlines: {}, // seat -> performance.now() time a bot is due to play that absent person's seat
    dealDeadline: null, // performance.now() time a fair table deals at the latest (null: no clock runs)
    tableInfo: null,
    fatal: "",
    myStandIn: null, // whether a bot stood in for this page's seat in the last state
    absentLong: false, // back after longer than the table's away time: say so at the next state
    lostAt: 0, // Date.now() when a working connection dropped
    backTimer: null,
    lastFight: null, // the last fight over, as the server sent it (`last_fight`), until the next one ends
    fightOpen: false, // the combat panel shows the last fight: "linger" (just ended, for a few seconds) or "open"
    fightTimer: null,
    handTo: null, // a pass-and-play device: the person someone asked to hand it to ("Bob wants to play a card")
    passNote: "", // a pass-and-play device: why the last claim ended ("Bob's own decision: hand the device to Bob")
    typedSent: "", // the move typed and sent, put back in the box if the server refuses it
  };

  // ------------------------------------------------------------------ small helpers
  const view = () => (S.msg && S.msg.view) || null;
  /** The seat's player name: hello.player (server) or hello.name (docs/server.md). */
  const helloSeatName = () => (S.hello ? ("player" in S.hello ? S.hello.player : S.hello.name) : null);
  /** The table's name when hello carries it next to the player's name. */
  const helloTableName = () => (S.hello && "player" in S.hello ? S.hello.name : null);
  const mySeat = () => (S.hello && S.hello.seat !== null && S.hello.seat !== undefined ? S.hello.seat : null);
  const isSpectator = () => mySeat() === null;

  function playerName(seat) {
    const v = view();
    if (v && v.players && v.players[seat]) return v.players[seat].name;
    const s = S.msg && (S.msg.seats || []).find((x) => x.seat === seat);
    return s ? s.name : `seat ${seat + 1}`;
  }

  function namesList(seats) {
    const names = (seats || []).map((s) => (s === mySeat() ? "you" : playerName(s)));
    if (names.length <= 1) return names.join("");
    return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  }

  function signed(v) {
    if (typeof v !== "number") return String(v);
    return v > 0 ? `+${v}` : v < 0 ? `−${Math.abs(v)}` : "±0";
  }

  /** Legal actions, one per text (copies of a card make the same text), cards merged; `any_time`: a move besides answering;
   * `whim`: it only rearranges one's own things (no window waits for it). */
  function actions() {
    const out = new Map();
    for (const a of (S.msg && S.msg.actions) || []) {
      if (!a || typeof a.text !== "string") continue;
      const prev = out.get(a.text);
      if (prev) {
        prev.cards = [...new Set([...prev.cards, ...(a.cards || [])])];
        prev.any_time = prev.any_time && !!a.any_time;
        prev.whim = prev.whim && !!a.whim;
      } else {
        const kind = a.kind || a.text.split(" ")[0];
        out.set(a.text, { text: a.text, kind, cards: [...(a.cards || [])], any_time: !!a.any_time, whim: !!a.whim });
      }
    }
    return [...out.values()];
  }

  /** Cards one of the moves plays or uses now; a whim (discarding one's own Race, an Item equipped or traded) marks none. */
  function usableCards() {
    const set = new Set();
    for (const a of actions()) if (!a.whim) for (const c of a.cards) set.add(c);
    return set;
  }

  // ------------------------------------------------------------------ errors
  function showError(text) {
    const box = $("error");
    fill(box, el("strong", null, "✗ "), text);
    box.hidden = false;
  }

  function clearError() {
    const box = $("error");
    box.hidden = true;
    box.replaceChildren();
  }

  // ------------------------------------------------------------------ what the table is
  const info = (key) => {
    if (S.hello && S.hello[key] !== undefined) return S.hello[key];
    return S.tableInfo ? S.tableInfo[key] : undefined;
  };

  /** The table's fair-deal record as last sent (null: a chosen seed, or a table from before fair deals). */
  function fairInfo() {
    if (S.msg && "fair" in S.msg) return S.msg.fair;
    return S.hello && S.hello.fair ? S.hello.fair : null;
  }

  /** Before the deal: no cards yet, only the fair-deal panel. */
  const beforeDeal = () => {
    const f = fairInfo();
    return !!(f && !f.dealt);
  };

  /** Seconds left until `deadline` (a performance.now() time) as m:ss ("0:24", "1:40"). */
  function clockText(deadline) {
    const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
    return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }

  function capitalized(text) {
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  }

  /** Is this page a pass-and-play table's shared device (docs/server.md, Pass and play)? */
  const isDevice = () => !!(S.hello && S.hello.device);
  const deviceInfo = () => (S.msg && S.msg.device) || null;

  // cardface.js: the card faces and icons (null if that script did not load: names stay plain text)
  const Faces = typeof CardFace === "undefined" ? null : CardFace;

  /** Text with the card names in it made card references (names of cards the seat sees already). */
  function cardText(text) {
    return Faces ? Faces.linkify(text) : String(text);
  }

  // table talk (chat.js), if that script loaded
  const Talk = typeof Chat === "undefined" ? null : Chat;

  return {
    $,
    tableId,
    token,
    seatParam,
    PHASE_WORDS,
    fightWords,
    PROMPT_WORDS,
    WINDOW_WORDS,
    WINDOW_TITLES,
    S,
    view,
    helloSeatName,
    helloTableName,
    mySeat,
    isSpectator,
    playerName,
    namesList,
    signed,
    actions,
    usableCards,
    showError,
    clearError,
    info,
    fairInfo,
    beforeDeal,
    clockText,
    capitalized,
    isDevice,
    deviceInfo,
    Faces,
    cardText,
    Talk,
  };
})();

/* Munchkin lobby: create a table, list tables, keep this browser's join links. */
"use strict";

(() => {
  const { el, fill, api, plural, copyText, myTables, saveMyTables, absolute } = M;

  const BOT_NAMES = ["Grimgnaw", "Lady Pointy", "Sir Loots-a-Lot", "Dungeon Dave", "Elfrieda", "Bob the Bot"];
  // the bot tiers (GET /api/bots fills in the agent, how it plays and its rating); "heuristic" is the
  // Easy bot's name on tables made before the tiers
  const BOTS = {
    easy: { label: "Easy" },
    medium: { label: "Medium" },
    hard: { label: "Hard" },
    random: { label: "Random" },
  };
  const BOT_ORDER = ["easy", "medium", "hard", "random"];
  const botLabel = (id) => (BOTS[id === "heuristic" ? "easy" : id] || {}).label || id || "?";
  const botHint = (id) => {
    const b = BOTS[id] || {};
    if (!b.agent) return "";
    return `${b.about} (agent ${b.agent}${b.rating ? "; " + b.rating : ""})`;
  };
  const REFRESH_MS = 3000;

  const $ = (id) => document.getElementById(id);
  const errorBox = $("lobby-error");
  const form = $("create-form");
  const seatRows = $("seat-rows");
  const seatCount = $("seat-count");
  const createdBox = $("created-links");
  const tablesBox = $("tables");
  const tablesStatus = $("tables-status");

  let errorSource = null; // "create" | "list" | "sets": who put the message up

  function showError(msg, source) {
    errorSource = source;
    fill(errorBox, el("strong", null, "Problem: "), msg);
    errorBox.hidden = false;
  }

  function clearError(source) {
    if (source && errorSource !== source) return;
    errorSource = null;
    errorBox.hidden = true;
    errorBox.replaceChildren();
  }

  // ------------------------------------------------------------------ sets
  async function loadSets() {
    const box = $("sets");
    try {
      const sets = await api("/api/sets");
      $("sets-loading").remove();
      for (const s of sets) {
        const id = "set-" + s.id;
        box.appendChild(
          el(
            "div",
            { class: "check" },
            el("input", { type: "checkbox", id, name: "set", value: s.id, checked: s.id === "deluxe" || sets.length === 1 }),
            el("label", { for: id }, s.name || s.id)
          )
        );
      }
      clearError("sets");
    } catch (err) {
      $("sets-loading").textContent = "Could not load the card sets.";
      showError("could not load the card sets: " + err.message, "sets");
    }
  }

  /** What each bot tier is (agent, how it plays, rating), from the server: the choices say it. */
  async function loadBots() {
    try {
      for (const b of await api("/api/bots")) BOTS[b.id] = b;
    } catch (err) {
      return; // the labels alone still work
    }
    for (const sel of seatRows.querySelectorAll(".seat-strength")) {
      for (const opt of sel.options) opt.textContent = botLabel(opt.value);
      const hint = document.getElementById(sel.getAttribute("aria-describedby"));
      if (hint) hint.textContent = botHint(sel.value);
    }
  }

  // ------------------------------------------------------------------ seats
  function defaultName(i, kind) {
    return kind === "bot" ? BOT_NAMES[i % BOT_NAMES.length] : `Player ${i + 1}`;
  }

  function seatRow(i, kind) {
    const name = el("input", {
      type: "text",
      class: "seat-name",
      id: `seat-name-${i}`,
      name: `seat-name-${i}`,
      maxlength: 24,
      autocomplete: "off",
      required: true,
    });
    name.value = defaultName(i, kind);
    name.dataset.auto = "1";
    name.addEventListener("input", () => {
      name.dataset.auto = "";
    });

    const kindSel = el(
      "select",
      { class: "seat-kind", id: `seat-kind-${i}`, name: `seat-kind-${i}` },
      el("option", { value: "human" }, "person"),
      el("option", { value: "bot" }, "bot")
    );
    kindSel.value = kind;

    const strength = el(
      "select",
      {
        class: "seat-strength",
        id: `seat-strength-${i}`,
        name: `seat-strength-${i}`,
        "aria-describedby": `seat-strength-hint-${i}`,
      },
      ...BOT_ORDER.map((id) => el("option", { value: id }, botLabel(id)))
    );
    strength.value = "medium";
    const strengthHint = el(
      "span",
      { class: "hint tier-hint", id: `seat-strength-hint-${i}`, hidden: kind !== "bot" },
      botHint("medium")
    );
    strength.addEventListener("change", () => (strengthHint.textContent = botHint(strength.value)));

    const sex = el(
      "select",
      { class: "seat-sex", id: `seat-sex-${i}`, name: `seat-sex-${i}` },
      el("option", { value: "" }, "at random"),
      el("option", { value: "male" }, "male"),
      el("option", { value: "female" }, "female")
    );

    const house = el(
      "select",
      { class: "seat-house", id: `seat-house-${i}`, name: `seat-house-${i}` },
      el("option", { value: "" }, "at random"),
      ...["Gryffindor", "Hufflepuff", "Ravenclaw", "Slytherin"].map((h) => el("option", { value: h }, h))
    );

    const row = el(
      "li",
      { class: "seat-row", dataset: { seat: i, kind } },
      el("span", { class: "seat-label" }, `Seat ${i + 1}`),
      el("div", { class: "field" }, el("label", { for: name.id }, "Name"), name),
      el("div", { class: "field" }, el("label", { for: kindSel.id }, "Who plays"), kindSel),
      el("div", { class: "field" }, el("label", { for: sex.id }, "Character's sex"), sex),
      el(
        "div",
        { class: "field house-field", hidden: !harryPotterChosen() }, // only with the Harry Potter set
        el("label", { for: house.id }, "House ", el("span", { class: "hint" }, "(Harry Potter)")),
        house
      ),
      el(
        "div",
        { class: "field strength-field", hidden: kind !== "bot" }, // a person's seat has no bot strength
        el("label", { for: strength.id }, "Bot strength"),
        strength
      ),
      strengthHint // under the whole row: how the chosen tier plays
    );
    kindSel.addEventListener("change", () => {
      row.dataset.kind = kindSel.value;
      row.querySelector(".strength-field").hidden = strengthHint.hidden = kindSel.value !== "bot";
      if (name.dataset.auto) name.value = defaultName(i, kindSel.value);
    });
    return row;
  }

  /** Is the Harry Potter set ticked? Houses belong to it: the House choice shows only then. */
  function harryPotterChosen() {
    const box = document.getElementById("set-harry-potter");
    return !!box && box.checked;
  }

  function syncHouseFields() {
    const on = harryPotterChosen();
    for (const f of seatRows.querySelectorAll(".house-field")) f.hidden = !on;
  }

  /** The seats' column headings, shown once above the rows where a seat fits on one line (each row's
   * own labels are then read by screen readers only); hidden from them, which read the labels. */
  function seatHeadings() {
    if (seatRows.querySelector(".seat-head")) return;
    seatRows.prepend(
      el(
        "li",
        { class: "seat-head", "aria-hidden": "true" },
        el("span", null, ""),
        el("span", null, "Name"),
        el("span", null, "Who plays"),
        el("span", null, "Character's sex"),
        el("span", { class: "head-strength" }, "Bot strength")
      )
    );
  }

  function syncSeatRows() {
    seatHeadings();
    const n = Math.max(3, Math.min(6, parseInt(seatCount.value, 10) || 4));
    const rows = seatRows.querySelectorAll(".seat-row");
    for (let i = rows.length; i < n; i++) seatRows.appendChild(seatRow(i, i < 2 ? "human" : "bot"));
    for (let i = rows.length - 1; i >= n; i--) rows[i].remove();
  }

  // ------------------------------------------------------------------ create
  function readForm() {
    const problems = [];
    const name = $("table-name").value.trim();
    if (!name) problems.push("give the table a name");
    const sets = [...form.querySelectorAll('input[name="set"]:checked')].map((x) => x.value);
    if (!sets.length) problems.push("choose at least one card set");
    const seats = [...seatRows.querySelectorAll(".seat-row")].map((row) => ({
      name: row.querySelector(".seat-name").value.trim(),
      kind: row.querySelector(".seat-kind").value,
      strength: row.querySelector(".seat-strength").value,
      sex: row.querySelector(".seat-sex").value || null,
      house: (sets.includes("harry-potter") && row.querySelector(".seat-house").value) || null,
    }));
    if (seats.some((s) => !s.name)) problems.push("every seat needs a name");
    if ($("pass-and-play").checked && seats.filter((s) => s.kind === "human").length < 2) {
      problems.push("one screen (pass-and-play) needs at least two person seats to pass the device between");
    }
    const lower = seats.map((s) => s.name.toLowerCase());
    if (new Set(lower).size !== lower.length) problems.push("seat names must all be different");
    const windowSeconds = parseFloat($("window-seconds").value);
    if (!(windowSeconds >= 0.5 && windowSeconds <= 60)) problems.push("the response window must be 0.5 to 60 seconds");
    const botDelay = parseFloat($("bot-delay").value);
    if (!(botDelay >= 0 && botDelay <= 5)) problems.push("the bot delay must be 0 to 5 seconds");
    const seedInput = $("seed");
    const seedText = seedInput.value.trim();
    let seed = null;
    if (seedInput.validity.badInput || (seedText && !(/^\d+$/.test(seedText) && Number(seedText) <= 2 ** 31))) {
      problems.push("the seed must be a whole number from 0 to 2147483648, or empty");
    } else if (seedText) {
      seed = Number(seedText);
    }
    const awayInput = $("away-seconds");
    const awaySeconds = Number(awayInput.value.trim());
    if (awayInput.validity.badInput || !awayInput.value.trim() || !Number.isInteger(awaySeconds) || awaySeconds < 10 || awaySeconds > 3600) {
      problems.push("the bot stands in after 10 to 3600 whole seconds");
    }
    const joinInput = $("join-seconds");
    const joinSeconds = Number(joinInput.value.trim());
    if (joinInput.validity.badInput || !joinInput.value.trim() || !Number.isInteger(joinSeconds) || joinSeconds < 10 || joinSeconds > 3600) {
      problems.push("a bot plays a seat nobody has opened after 10 to 3600 whole seconds");
    }
    let turnClock = null;
    if ($("turn-clock-on").checked) {
      const clockInput = $("turn-clock");
      turnClock = Number(clockInput.value.trim());
      if (clockInput.validity.badInput || !clockInput.value.trim() || !Number.isInteger(turnClock) || turnClock < 10 || turnClock > 3600) {
        problems.push("the turn clock must be 10 to 3600 whole seconds, or off");
      }
    }
    return {
      problems,
      body: {
        name,
        sets,
        seats,
        options: { listen_at_the_door: $("opt-listen").checked, shared_victories: $("opt-shared").checked },
        window_seconds: windowSeconds,
        allow_wait: $("allow-wait").checked,
        bot_delay: botDelay,
        seed,
        away_seconds: awaySeconds,
        join_seconds: joinSeconds,
        turn_clock: turnClock,
        pass_and_play: $("pass-and-play").checked,
        chat: $("chat-on").checked,
        spectator_chat: $("spectator-chat").checked,
      },
    };
  }

  async function onSubmit(ev) {
    ev.preventDefault();
    const { problems, body } = readForm();
    if (problems.length) {
      // a wrong value among the folded options: unfold them, so that the person sees what to mend
      if (ADVANCED.some((id) => $(id).validity.badInput || problems.some((p) => p.includes(ADVANCED_WORDS[id])))) {
        $("more-options").open = true;
      }
      showError(problems.join("; ") + ".", "create");
      return;
    }
    const button = $("create-table");
    button.disabled = true;
    button.textContent = "Creating…";
    try {
      const res = await api("/api/tables", { json: body });
      clearError("create");
      const entry = {
        id: res.table.id,
        name: res.table.name,
        created: res.table.created || new Date().toISOString(),
        links: (res.links || []).map((l) => ({ seat: l.seat, name: l.name, url: absolute(l.url) })),
        watch: absolute(res.watch || `/table/${res.table.id}`),
        join_seconds: res.table.join_seconds,
        device: res.device ? absolute(res.device) : null, // pass-and-play: the shared screen's link
      };
      saveMyTables([entry, ...myTables().filter((t) => t.id !== entry.id)]);
      showCreated(entry);
      renderMyTables();
      refreshTables();
    } catch (err) {
      showError(createProblem(err), "create");
    } finally {
      button.disabled = false;
      button.textContent = "Create table";
    }
  }

  // the fields folded under "More options", and a word of the problem each may cause (readForm)
  const ADVANCED = ["window-seconds", "bot-delay", "seed", "away-seconds", "turn-clock"];
  const ADVANCED_WORDS = {
    "window-seconds": "response window",
    "bot-delay": "bot delay",
    seed: "seed",
    "away-seconds": "bot stands in",
    "turn-clock": "turn clock",
  };

  /** What a refused creation says to the person, by the server's status. */
  function createProblem(err) {
    const detail = err.message.replace(/[.\s]+$/, "");
    switch (err.status) {
      case 429: {
        const secs = err.retryAfter;
        const when =
          secs === null || secs === undefined
            ? "Wait a little and try again."
            : `Try again in ${secs < 90 ? plural(Math.ceil(secs), "second") : plural(Math.ceil(secs / 60), "minute")} (after ${new Date(
                Date.now() + secs * 1000
              ).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" })}).`;
        return `no new table for now: ${detail}. ${when}`;
      }
      case 503:
        return `the server is full and takes no new tables for now: ${detail}. Try again later, when some games have ended.`;
      case 413:
        return `the table's description is too large for the server: ${detail}. Use shorter names.`;
      case 422:
        return `the server refused the table: ${detail}.`;
      default:
        return `could not create the table: ${detail}.`;
    }
  }

  function linkRow(label, url, linkAttrs) {
    const input = el("input", { type: "text", readonly: true, class: "link-text", "aria-label": `${label}: link` });
    input.value = url;
    input.addEventListener("focus", () => input.select());
    const status = el("span", { class: "copy-status", "aria-live": "polite" });
    const copy = el("button", { type: "button", class: "copy" }, "Copy");
    copy.addEventListener("click", async () => {
      const ok = await copyText(url);
      status.textContent = ok ? "✓ copied" : "select the link and copy it";
      if (!ok) input.select();
      setTimeout(() => (status.textContent = ""), 2500);
    });
    return el(
      "li",
      { class: "link-row" },
      el("span", { class: "link-label" }, label),
      input,
      el("span", { class: "link-buttons" }, copy, el("a", { href: url, ...linkAttrs }, "Open"), status)
    );
  }

  function linkList(entry) {
    return el(
      "ul",
      { class: "links" },
      entry.device
        ? linkRow("One screen — every person", entry.device, {
            class: "device-link button-link",
            "aria-label": "Open the shared screen, which every person plays from in turn",
          })
        : null,
      entry.links.map((l) =>
        linkRow(`Seat ${l.seat + 1} — ${l.name}`, l.url, {
          class: "join-link button-link",
          dataset: { seat: l.seat },
          "aria-label": `Open ${l.name}'s seat`,
        })
      ),
      linkRow("Watch (spectators)", entry.watch, { class: "watch-link button-link", "aria-label": "Open the watch page" })
    );
  }

  function showCreated(entry) {
    fill(
      createdBox,
      el("h3", { id: "created-heading", tabindex: "-1" }, "✓ Table “", entry.name, "” is ready"),
      el(
        "p",
        null,
        entry.device
          ? "Open the one-screen link on the device you will pass round: it plays every person seat, one hand at a " +
              "time. The seat links below still let a friend play from their own device instead."
          : entry.links.length
          ? "Send each person their own link: it is their secret seat, so keep it private. Everyone else can watch."
          : "Only bots at this table: watch them play."
      ),
      linkList(entry),
      entry.links.length > 1 && typeof entry.join_seconds === "number"
        ? el(
            "p",
            { class: "hint join-grace" },
            `A seat whose link nobody has opened ${entry.join_seconds} s after the first person sits down is played by a bot ` +
              "until its person joins; anyone at the table may also let a bot play it at once."
          )
        : null,
      el("p", { class: "hint" }, "These links are saved under “Your tables” in this browser.")
    );
    createdBox.hidden = false;
    // the whole box, links and all, comes into view (its top at the top of the window), and the
    // keyboard carries on from its heading
    $("created-heading").focus({ preventScroll: true });
    createdBox.scrollIntoView({ behavior: M.scrollMotion(), block: "start" });
  }

  // ------------------------------------------------------------------ your tables
  function renderMyTables() {
    const list = myTables();
    const section = $("my-tables-section");
    section.hidden = list.length === 0;
    fill(
      $("my-tables"),
      list.map((t) => {
        const forget = el("button", { type: "button", class: "small" }, "Forget");
        forget.addEventListener("click", () => {
          saveMyTables(myTables().filter((x) => x.id !== t.id));
          renderMyTables();
          rerenderTables(); // the list again, without this table's links
        });
        return el(
          "li",
          { class: "my-table", dataset: { tableId: t.id } },
          el(
            "details",
            null,
            el("summary", null, el("strong", null, t.name), " ", el("span", { class: "hint" }, `(${formatTime(t.created)})`)),
            linkList(t),
            forget
          )
        );
      })
    );
  }

  // ------------------------------------------------------------------ table list
  function formatTime(v) {
    if (v === undefined || v === null || v === "") return "";
    const d = typeof v === "number" ? new Date(v < 1e12 ? v * 1000 : v) : new Date(v);
    if (isNaN(d.getTime())) return String(v);
    return d.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  }

  function seatItem(s) {
    const bits = [];
    if (s.kind === "bot") bits.push(`bot (${botLabel(s.strength)})`);
    else {
      bits.push("person");
      bits.push(s.claimed ? "seat taken" : "FREE SEAT");
      if (s.stand_in) bits.push(s.claimed ? "○ away — a bot is playing for them" : "○ a bot is playing until they join");
      else bits.push(s.connected ? "● online" : "○ offline");
    }
    return el(
      "li",
      { class: "seat" + (s.kind === "human" && !s.claimed ? " free" : "") + (s.stand_in ? " stand-in" : "") },
      el("span", { class: "seat-who" }, s.name),
      " — ",
      bits.join(", ")
    );
  }

  const hasSeed = (t) => t.seed !== null && t.seed !== undefined;
  const SEED_WARNING =
    "whoever knows the seed, starting with the table's creator, can work out every hand and the order of the decks. " +
    "For practice and testing only.";

  function seedBadge(t) {
    if (!hasSeed(t)) return null;
    return el(
      "span",
      {
        class: "badge seed-badge",
        title: `This table's deal comes from the chosen seed ${t.seed}: ${SEED_WARNING}`,
      },
      el("span", { "aria-hidden": "true" }, "⚠ "),
      `Seeded deal · seed ${t.seed}`,
      el("span", { class: "visually-hidden" }, `: ${SEED_WARNING}`)
    );
  }

  /** A fair table's badge: its commitment, short, the whole of it in the title; the secret once over. */
  function fairBadge(t) {
    const f = t.fair;
    if (!f || typeof f.commitment !== "string") return null;
    const words =
      "Fair deal: every shuffle and die roll comes from a secret the server committed to, shown here as its " +
      "SHA-256, and the entropy the players add; the secret is revealed when the game ends, to check every draw " +
      "(munchkin verify).";
    return el(
      "span",
      { class: "badge fair-badge", title: `${words} Commitment ${f.commitment}${f.secret ? `; secret ${f.secret}` : ""}` },
      `Fair deal · ${f.commitment.slice(0, 8)}…`,
      el("span", { class: "visually-hidden" }, `: ${words} Commitment ${f.commitment}.`)
    );
  }

  function isOpen(t) {
    return t.status === "playing" && (t.seats || []).some((s) => s.kind === "human" && !s.claimed);
  }

  function tableRow(t, mine) {
    const free = (t.seats || []).filter((s) => s.kind === "human" && !s.claimed);
    const over = t.status !== "playing";
    const status =
      t.status === "over"
        ? `✓ Game over${t.winners && t.winners.length ? ": " + t.winners.join(" and ") + " won" : ", no winner"}`
        : t.status === "playing"
          ? `▶ Playing, turn ${t.turn ?? "?"}`
          : t.status === "stopped"
            ? "■ Stopped"
            : `■ ${String(t.status || "unknown").replace(/^./, (c) => c.toUpperCase())}`;
    const watching = typeof t.spectators === "number" && t.spectators > 0 ? ` · ${t.spectators} watching` : "";
    const clock =
      (typeof t.window_seconds === "number" ? ` · windows ${t.window_seconds} s` : "") +
      (t.allow_wait === false ? " · no Wait!" : "") +
      (t.chat === false ? " · no chat" : t.spectator_chat === false ? " · spectators talk apart" : "") +
      (typeof t.turn_clock === "number" ? ` · turn clock ${t.turn_clock} s` : "");
    const myLinks = mine ? mine.links : [];
    return el(
      "article",
      {
        class: "table-row" + (free.length && !over ? " open" : "") + (over ? " over" : "") + (hasSeed(t) ? " seeded" : ""),
        dataset: { tableId: t.id, status: t.status },
      },
      el(
        "div",
        { class: "table-head" },
        el("h3", null, t.name),
        el(
          "span",
          { class: "badges" },
          free.length && !over ? el("span", { class: "badge open-badge" }, `OPEN — ${plural(free.length, "free seat")}`) : null,
          seedBadge(t),
          fairBadge(t)
        )
      ),
      el("p", { class: "table-meta" }, status, " · sets: ", (t.sets || []).join(", ") || "?", clock, watching),
      t.status === "stopped" || t.stopped
        ? el(
            "p",
            { class: "stopped-reason" },
            el("strong", null, "Why it stopped: "),
            t.stopped ? String(t.stopped) : "the server did not say."
          )
        : null,
      el("ul", { class: "seat-list" }, (t.seats || []).map(seatItem)),
      el(
        "p",
        { class: "table-links" },
        el("a", { href: `/table/${encodeURIComponent(t.id)}`, class: "watch button-link" }, "Watch"),
        myLinks.map((l) =>
          el(
            "a",
            { href: l.url, class: "button-link play-link", dataset: { seat: l.seat } },
            `Play as ${l.name}`
          )
        )
      )
    );
  }

  // The list: the first page of the chosen status, polled with If-None-Match, and the pages
  // "More tables" added after it (each page follows the previous page's `next`).
  const FILTER_WORDS = { all: "tables", open: "open tables", playing: "tables playing", over: "finished tables" };
  const pageLimit = (() => {
    const n = parseInt(new URLSearchParams(location.search).get("limit") || "", 10);
    return n >= 1 && n <= 100 ? n : null; // null: the server's own page size
  })();
  const L = {
    status: "all",
    first: [], // the first page, as last fetched
    more: [], // the tables of the pages added by "More tables"
    next: null, // the cursor after the last page shown
    firstNext: null, // the first page's own cursor
    counts: null,
    etag: null,
    generation: 0, // bumped when the filter changes: older answers are dropped
    legacy: false, // an older server that answers with a bare list
  };

  function listUrl(after) {
    const q = new URLSearchParams({ status: L.status });
    if (pageLimit) q.set("limit", String(pageLimit));
    if (after) q.set("after", after);
    return "/api/tables?" + q.toString();
  }

  /** One page: {page: {tables, next, counts}, etag} or {notModified: true}. */
  async function fetchPage(after, etag) {
    const headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    let resp;
    try {
      resp = await fetch(listUrl(after), { headers, cache: "no-store" });
    } catch (err) {
      throw new Error("cannot reach the server (" + (err && err.message ? err.message : err) + ")");
    }
    if (resp.status === 304) return { notModified: true };
    const text = await resp.text();
    let body = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch (_) {
      body = null;
    }
    if (!resp.ok) throw new Error(M.detailText(body, resp.status));
    if (Array.isArray(body)) {
      // an older server: every table at once, filtered and counted here
      L.legacy = true;
      const counts = { open: 0, playing: 0, over: 0, stopped: 0 };
      for (const t of body) {
        if (t.status in counts) counts[t.status]++;
        if (isOpen(t)) counts.open++;
      }
      const keep = (t) => L.status === "all" || (L.status === "open" ? isOpen(t) : t.status === L.status);
      return { page: { tables: body.filter(keep), next: null, counts }, etag: null };
    }
    if (!body || !Array.isArray(body.tables)) throw new Error("the server's list of tables makes no sense");
    return { page: body, etag: resp.headers.get("ETag") };
  }

  function renderCounts() {
    const c = L.counts;
    for (const span of document.querySelectorAll(".filter-count")) {
      const k = span.dataset.count;
      const n = !c ? null : k === "all" ? (c.playing || 0) + (c.over || 0) + (c.stopped || 0) : c[k];
      span.textContent = typeof n === "number" ? `(${n})` : "";
    }
  }

  function renderTables() {
    const seen = new Set();
    const shown = [];
    for (const t of [...L.first, ...L.more]) {
      if (seen.has(t.id)) continue; // a table that moved up onto the first page since
      seen.add(t.id);
      shown.push(t);
    }
    const mine = new Map(myTables().map((t) => [t.id, t]));
    fill(tablesBox, shown.map((t) => tableRow(t, mine.get(t.id))));
    renderCounts();
    const more = $("more-tables");
    more.hidden = !L.next;
    const c = L.counts || {};
    const word = FILTER_WORDS[L.status];
    const stopped = c.stopped ? `, ${c.stopped} stopped` : "";
    if (!shown.length) {
      tablesStatus.textContent =
        L.status === "all" ? "No tables yet: create one above." : `No ${word} right now. Updated every few seconds.`;
    } else if (L.status === "all") {
      tablesStatus.textContent = `Showing ${shown.length} of ${plural(
        (c.playing || 0) + (c.over || 0) + (c.stopped || 0),
        "table"
      )}: ${c.open || 0} open, ${c.playing || 0} playing, ${c.over || 0} finished${stopped}. Updated every few seconds.`;
    } else {
      const total = c[L.status];
      tablesStatus.textContent = `Showing ${shown.length}${typeof total === "number" ? " of " + total : ""} ${word}. Updated every few seconds.`;
    }
  }

  let refreshing = false;

  async function refreshTables() {
    if (refreshing) return;
    refreshing = true;
    const gen = L.generation;
    try {
      const got = await fetchPage(null, L.etag);
      if (gen !== L.generation) return; // the filter changed meanwhile
      clearError("list");
      if (got.notModified) return; // the first page is as it was: keep it
      L.etag = got.etag;
      L.first = got.page.tables;
      L.firstNext = got.page.next || null;
      L.counts = got.page.counts || L.counts;
      if (!L.more.length) L.next = L.firstNext;
      renderTables();
    } catch (err) {
      if (gen !== L.generation) return;
      tablesStatus.textContent = "Could not load the tables; trying again…";
      if (errorSource === null || errorSource === "list") showError("could not load the tables: " + err.message, "list");
    } finally {
      refreshing = false;
      if (gen !== L.generation) refreshTables(); // the new filter's first page
    }
  }

  async function loadMore() {
    const button = $("more-tables");
    if (!L.next || button.disabled) return;
    const gen = L.generation;
    button.disabled = true;
    button.textContent = "Loading…";
    try {
      const got = await fetchPage(L.next, null);
      if (gen !== L.generation || got.notModified) return;
      clearError("list");
      L.more = [...L.more, ...got.page.tables];
      L.next = got.page.next || null;
      L.counts = got.page.counts || L.counts;
      renderTables();
      const firstNew = got.page.tables.length ? tablesBox.querySelector(`[data-table-id="${CSS.escape(got.page.tables[0].id)}"] h3`) : null;
      if (firstNew) {
        firstNew.setAttribute("tabindex", "-1");
        firstNew.focus({ preventScroll: false }); // keyboard users carry on at the first new table
      }
    } catch (err) {
      if (gen === L.generation) showError("could not load more tables: " + err.message, "list");
    } finally {
      button.disabled = false;
      button.textContent = "More tables";
    }
  }

  function setFilter(status) {
    if (status === L.status) return;
    L.status = status;
    L.generation++;
    L.etag = null;
    L.first = [];
    L.more = [];
    L.next = null;
    fill(tablesBox);
    $("more-tables").hidden = true;
    tablesStatus.textContent = "Loading…";
    refreshTables();
  }

  function rerenderTables() {
    // after "Your tables" changed: the same list, drawn again with or without this browser's links
    renderTables();
  }

  // ------------------------------------------------------------------ start
  seatCount.addEventListener("change", syncSeatRows);
  $("sets").addEventListener("change", syncHouseFields); // a set ticked or unticked: the House choice follows
  seatCount.addEventListener("input", syncSeatRows);
  form.addEventListener("submit", onSubmit);
  for (const r of document.querySelectorAll('input[name="table-status"]')) {
    r.addEventListener("change", () => r.checked && setFilter(r.value));
  }
  $("more-tables").addEventListener("click", loadMore);
  const clockOn = $("turn-clock-on");
  const syncClock = () => {
    $("turn-clock").disabled = !clockOn.checked;
    document.querySelector(".turn-clock-seconds").classList.toggle("off", !clockOn.checked);
  };
  clockOn.addEventListener("change", syncClock);
  syncClock();
  const syncChat = () => ($("spectator-chat").disabled = !$("chat-on").checked); // no chat: nobody to read
  $("chat-on").addEventListener("change", syncChat);
  syncChat();
  $("table-name").value = `${["Dungeon", "Crypt", "Lair", "Tavern"][Math.floor(Math.random() * 4)]} of ${
    ["Doom", "Loot", "Pointy Hats", "Bad Stuff"][Math.floor(Math.random() * 4)]
  }`;
  syncSeatRows();
  renderMyTables();
  loadBots();
  loadSets().then(syncHouseFields); // Harry Potter may be ticked from the start (a server with only that set)
  refreshTables();
  setInterval(refreshTables, REFRESH_MS);
})();

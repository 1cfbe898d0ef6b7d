/* Harborline Dev Summit: schedule by day and track, personal agenda, speakers, tickets and registration. */
(function () {
  "use strict";
  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const { days, tracks, speakers, sessions, tiers } = window.SUMMIT;
  const AGENDA_KEY = "conference_site.agenda";
  const $ = (id) => document.getElementById(id);
  const speakerById = Object.fromEntries(speakers.map((s) => [s.id, s]));
  const dayById = Object.fromEntries(days.map((d) => [d.id, d]));
  const tierById = Object.fromEntries(tiers.map((t) => [t.id, t]));

  const money = (amount) => defect("summary-wrong-currency")
    ? new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 }).format(amount)
    : new Intl.NumberFormat("en-IE", { style: "currency", currency: "EUR", maximumFractionDigits: 0 }).format(amount);
  const euros = (amount) => new Intl.NumberFormat("en-IE", { style: "currency", currency: "EUR", maximumFractionDigits: 0 }).format(amount);

  let currentDay = "day1";
  let currentTrack = "All";

  /* ---------- avatars ---------- */
  function avatar(sp) {
    const initials = sp.name.split(" ").map((w) => w[0]).join("");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${sp.hue},70%,62%)"/><stop offset="1" stop-color="hsl(${(sp.hue + 40) % 360},65%,38%)"/></linearGradient></defs><rect width="96" height="96" fill="url(#g)"/><text x="48" y="58" text-anchor="middle" font-family="Helvetica,Arial,sans-serif" font-size="32" font-weight="700" fill="#fff">${initials}</text></svg>`;
    return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  }

  /* ---------- schedule ---------- */
  function renderTabs() {
    const tabs = $("day-tabs");
    tabs.innerHTML = "";
    days.forEach((d) => {
      const b = document.createElement("button");
      b.type = "button";
      b.id = "tab-" + d.id;
      b.setAttribute("role", "tab");
      b.setAttribute("aria-controls", "day-panel");
      b.setAttribute("aria-selected", String(d.id === currentDay));
      b.tabIndex = d.id === currentDay ? 0 : -1;
      b.innerHTML = `<span class="tab-day">${d.label}</span><span class="tab-date">${d.date}</span>`;
      b.addEventListener("click", () => selectDay(d.id));
      tabs.appendChild(b);
    });
    $("day-panel").setAttribute("aria-labelledby", "tab-" + currentDay);
  }

  $("day-tabs").addEventListener("keydown", (e) => {
    if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
    const i = days.findIndex((d) => d.id === currentDay);
    const next = days[(i + (e.key === "ArrowRight" ? 1 : days.length - 1)) % days.length];
    selectDay(next.id);
    $("tab-" + next.id).focus();
  });

  function selectDay(id) {
    currentDay = id;
    // The faulty build forgets the chosen track when the day changes (the dropdown still shows it).
    if (defect("track-filter-lost-on-day-switch")) currentTrack = "All";
    renderTabs();
    renderSessions();
  }

  const trackSelect = $("track");
  tracks.forEach((t) => trackSelect.add(new Option(t, t)));
  trackSelect.addEventListener("change", () => { currentTrack = trackSelect.value; renderSessions(); });

  function renderSessions() {
    const list = $("sessions");
    const shown = sessions.filter((s) => s.day === currentDay && (currentTrack === "All" || s.track === currentTrack));
    list.innerHTML = "";
    shown.forEach((s) => {
      const sp = speakerById[s.speaker];
      const saved = agenda.includes(s.id);
      const li = document.createElement("li");
      li.className = "session";
      li.dataset.track = s.track;
      li.innerHTML = `
        <div class="session-time"><time>${s.start}</time>–<time>${s.end}</time></div>
        <div class="session-body">
          <span class="badge track-${tracks.indexOf(s.track)}">${s.track}</span>
          <h3 class="session-title">${s.title}</h3>
          <p class="session-meta"><span class="session-speaker">${sp.name}</span>, ${sp.company} · <span class="session-room">${s.room}</span></p>
        </div>
        <button type="button" class="btn btn-small agenda-toggle" aria-pressed="${saved}" aria-label="${saved ? "Remove from agenda" : "Add to agenda"}: ${s.title}">${saved ? "✓ In agenda" : "+ Add to agenda"}</button>`;
      li.querySelector(".agenda-toggle").addEventListener("click", () => toggleAgenda(s.id));
      list.appendChild(li);
    });
    $("sessions-empty").hidden = shown.length > 0;
  }

  /* ---------- my agenda ---------- */
  function loadAgenda() {
    if (defect("agenda-not-persisted")) return [];
    try {
      const ids = JSON.parse(localStorage.getItem(AGENDA_KEY) || "[]");
      return Array.isArray(ids) ? ids.filter((id) => sessions.some((s) => s.id === id)) : [];
    } catch (e) {
      return [];
    }
  }
  let agenda = loadAgenda();

  function toggleAgenda(id) {
    const s = sessions.find((x) => x.id === id);
    if (agenda.includes(id)) {
      agenda = agenda.filter((x) => x !== id);
      toast(`Removed “${s.title}” from your agenda`);
    } else {
      agenda.push(id);
      toast(`Added “${s.title}” to your agenda`);
    }
    localStorage.setItem(AGENDA_KEY, JSON.stringify(agenda));
    renderSessions();
    renderAgenda();
  }

  function renderAgenda() {
    const list = $("agenda-list");
    const items = sessions.filter((s) => agenda.includes(s.id)); // schedule order: by day, then time
    list.innerHTML = "";
    items.forEach((s) => {
      const li = document.createElement("li");
      li.innerHTML = `<span class="agenda-when">${dayById[s.day].date} · ${s.start}</span>
        <span class="agenda-title">${s.title}</span>
        <span class="agenda-room">${s.room}</span>`;
      const rm = document.createElement("button");
      rm.type = "button";
      rm.className = "link-btn";
      rm.textContent = "Remove";
      rm.setAttribute("aria-label", `Remove ${s.title} from agenda`);
      rm.addEventListener("click", () => toggleAgenda(s.id));
      li.appendChild(rm);
      list.appendChild(li);
    });
    $("agenda-count").textContent = items.length === 1 ? "1 session saved" : `${items.length} sessions saved`;
    $("agenda-empty").hidden = items.length > 0;
  }

  /* ---------- speakers ---------- */
  function renderSpeakers() {
    const grid = $("speaker-grid");
    speakers.forEach((sp) => {
      const li = document.createElement("li");
      li.innerHTML = `<button type="button" class="speaker-card" aria-label="View profile of ${sp.name}">
          <img src="${avatar(sp)}" alt="" width="88" height="88">
          <span class="speaker-name">${sp.name}</span>
          <span class="speaker-role">${sp.role}, ${sp.company}</span>
        </button>`;
      li.querySelector("button").addEventListener("click", () => openSpeaker(sp.id));
      grid.appendChild(li);
    });
  }

  const dialog = $("speaker-dialog");
  function openSpeaker(id) {
    const sp = speakerById[id];
    $("sd-avatar").src = avatar(sp);
    $("sd-avatar").alt = `Photo of ${sp.name}`;
    $("sd-name").textContent = sp.name;
    $("sd-role").textContent = `${sp.role} at ${sp.company}`;
    $("sd-bio").textContent = sp.bio;
    $("sd-sessions").innerHTML = sessions.filter((s) => s.speaker === id).map((s) =>
      `<li><strong>${s.title}</strong><span>${dayById[s.day].label}, ${dayById[s.day].date} · ${s.start}–${s.end} · ${s.room}</span></li>`).join("");
    dialog.showModal();
  }
  $("sd-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });

  /* ---------- tickets ---------- */
  function renderTiers() {
    const ul = $("tiers");
    tiers.forEach((t) => {
      const li = document.createElement("li");
      li.className = "tier" + (t.featured ? " tier-featured" : "") + (t.soldOut ? " tier-soldout" : "");
      li.innerHTML = `
        ${t.featured ? '<span class="ribbon">Most popular</span>' : ""}
        <h3>${t.name}</h3>
        <p class="tier-price"><span>${euros(t.price)}</span> <small>per person</small></p>
        <ul class="perks">${t.perks.map((p) => `<li>${p}</li>`).join("")}</ul>
        ${t.soldOut
          ? '<button type="button" class="btn btn-block" disabled>Sold out</button>'
          : `<button type="button" class="btn btn-block btn-accent" data-tier="${t.id}">Choose ${t.name}</button>`}`;
      const btn = li.querySelector("[data-tier]");
      if (btn) btn.addEventListener("click", () => chooseTier(t.id));
      ul.appendChild(li);
    });
  }

  function chooseTier(id) {
    if (!defect("tier-choice-not-preselected")) tierSelect.value = id;
    updateSummary();
    $("register").scrollIntoView({ block: "start" });
    $("r-name").focus({ preventScroll: true });
  }

  /* ---------- registration ---------- */
  const form = $("register-form");
  const tierSelect = $("r-tier");
  tiers.forEach((t) => {
    const opt = new Option(`${t.name} — ${euros(t.price)}${t.soldOut ? " (sold out)" : ""}`, t.id);
    if (t.soldOut && !defect("soldout-tier-registrable")) opt.disabled = true;
    tierSelect.add(opt);
  });
  tierSelect.value = "standard";

  function quantity() {
    const raw = $("r-qty").value.trim();
    return /^\d+$/.test(raw) ? Number(raw) : NaN;
  }
  const qtyValid = (q) => Number.isInteger(q) && q >= 1 && q <= 10;

  function updateSummary() {
    const t = tierById[tierSelect.value];
    const q = quantity();
    $("sum-tier").textContent = t.name;
    $("sum-price").textContent = money(t.price);
    $("sum-qty").textContent = qtyValid(q) ? String(q) : "—";
    $("sum-total").textContent = qtyValid(q) ? money(t.price * q) : "—";
  }
  tierSelect.addEventListener("change", updateSummary);
  $("r-qty").addEventListener("input", updateSummary);

  const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
  function setError(input, msg) {
    $(input.id + "-error").textContent = msg;
    input.setAttribute("aria-invalid", msg ? "true" : "false");
    return !msg;
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const t = tierById[tierSelect.value];
    const q = quantity();
    const name = $("r-name"), email = $("r-email");
    const ok = [
      setError(name, name.value.trim() ? "" : "Please enter your full name."),
      setError(email, !email.value.trim() ? "Please enter your email address."
        : EMAIL_RE.test(email.value.trim()) ? "" : "Please enter a valid email address, like name@company.com."),
      setError(tierSelect, t.soldOut && !defect("soldout-tier-registrable") ? `${t.name} tickets are sold out. Please choose another ticket type.` : ""),
      setError($("r-qty"), qtyValid(q) ? "" : "Choose between 1 and 10 tickets."),
      setError($("r-coc"), $("r-coc").checked ? "" : "Please accept the code of conduct to continue."),
    ].every(Boolean);
    if (!ok) {
      form.querySelector('[aria-invalid="true"]').focus();
      return;
    }
    const ref = "HDS25-" + String(Math.floor(1000 + Math.random() * 9000));
    $("confirmation").innerHTML = `
      <h3>You're registered!</h3>
      <p>Booking reference <strong class="ref">${ref}</strong></p>
      <p>${q} × ${t.name} ticket${q > 1 ? "s" : ""} · Total <strong>${money(t.price * q)}</strong></p>
      <p>Your tickets are on their way to <strong>${email.value.trim()}</strong>. See you in Rotterdam!</p>`;
    $("confirmation").classList.add("show");
    form.reset();
    tierSelect.value = "standard";
    form.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"));
    updateSummary();
  });

  /* ---------- toast ---------- */
  let toastTimer;
  function toast(text) {
    const el = $("toast");
    el.textContent = text;
    el.classList.add("show");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.classList.remove("show"); el.textContent = ""; }, 3000);
  }

  $("stat-talks").textContent = String(sessions.length);
  $("stat-speakers").textContent = String(speakers.length);
  renderTabs();
  renderSessions();
  renderAgenda();
  renderSpeakers();
  renderTiers();
  updateSummary();
})();

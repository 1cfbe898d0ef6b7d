/* RoomDesk: meeting-room booking with day and week views, kept in localStorage. */
(function () {
  "use strict";

  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const STORE_KEY = "room_booking.v1";
  const ME = "Jordan Lee";
  const OPEN = 8 * 60;
  const CLOSE = 18 * 60;
  const SLOT = 30;

  const ROOMS = [
    { id: "aurora", name: "Aurora", capacity: 4, floor: "Floor 2 · east wing", amenities: ["TV screen", "Whiteboard"] },
    { id: "birch", name: "Birch", capacity: 6, floor: "Floor 2 · west wing", amenities: ["Video conferencing", "Whiteboard"] },
    { id: "cedar", name: "Cedar", capacity: 10, floor: "Floor 3", amenities: ["Projector", "Video conferencing", "Phone"] },
    { id: "summit", name: "Summit Hall", capacity: 24, floor: "Floor 1 · by reception", amenities: ["Stage", "Projector", "Microphones"] },
  ];

  const $ = (id) => document.getElementById(id);
  const pad = (n) => String(n).padStart(2, "0");
  const hhmm = (mins) => `${pad(Math.floor(mins / 60))}:${pad(mins % 60)}`;
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const roomById = (id) => ROOMS.find((r) => r.id === id);

  function isoDate(d) {
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  }
  function parseIso(iso) {
    const [y, m, d] = iso.split("-").map(Number);
    return new Date(y, m - 1, d);
  }
  function addDays(iso, n) {
    const d = parseIso(iso);
    d.setDate(d.getDate() + n);
    return isoDate(d);
  }
  const todayIso = () => isoDate(new Date());
  function longDate(iso) {
    return parseIso(iso).toLocaleDateString("en-US", { weekday: "long", month: "long", day: "numeric", year: "numeric" });
  }
  function shortDate(iso) {
    return parseIso(iso).toLocaleDateString("en-US", { weekday: "short", month: "short", day: "numeric" });
  }
  function weekStart(iso) {
    const d = parseIso(iso);
    const shift = (d.getDay() + 6) % 7; // Monday first
    d.setDate(d.getDate() - shift);
    return isoDate(d);
  }

  /** End of a booking as shown in the "My bookings" list. */
  function listedEnd(b) {
    if (defect("end-time-display")) {
      return `${pad(Math.floor(b.start / 60) + Math.floor(b.duration / 60))}:${pad(b.start % 60)}`;
    }
    return hhmm(b.start + b.duration);
  }

  function seed() {
    const t = todayIso();
    const rows = [
      [0, "aurora", 9 * 60, 30, "Marketing stand-up", "Marcus Bell", 4],
      [0, "cedar", 10 * 60, 60, "Design review", "Priya Shah", 7],
      [0, "birch", 13 * 60, 60, "Client call – Fernway", "Omar Reyes", 3],
      [0, "summit", 14 * 60, 120, "Monthly all-hands", "Dana Whitfield", 22],
      [1, "aurora", 11 * 60, 60, "1:1 with Priya", ME, 2],
      [1, "cedar", 15 * 60, 90, "Sprint planning", "Lena Fischer", 8],
      [2, "birch", 9 * 60 + 30, 60, "Vendor demo – Tally", "Sam Ortiz", 5],
      [2, "cedar", 13 * 60 + 30, 90, "Roadmap workshop", ME, 6],
      [3, "summit", 10 * 60, 180, "Onboarding day", "Dana Whitfield", 15],
    ];
    return rows.map(([offset, room, start, duration, title, organizer, attendees], i) => ({
      id: `b${i + 1}`, date: addDays(t, offset), room, start, duration, title, organizer, attendees, status: "active",
    }));
  }

  function load() {
    try {
      const raw = localStorage.getItem(STORE_KEY);
      if (raw) return JSON.parse(raw);
    } catch (e) { /* start from the sample calendar */ }
    return seed();
  }

  let bookings = load();
  let viewDate = todayIso();
  let view = "day";
  let cancelId = null;

  const save = () => localStorage.setItem(STORE_KEY, JSON.stringify(bookings));
  const active = () => bookings.filter((b) => b.status !== "cancelled");

  /* ---------- snackbar ---------- */
  let snackTimer = null;
  function notify(text) {
    const bar = $("snackbar");
    bar.textContent = text;
    bar.classList.add("on");
    clearTimeout(snackTimer);
    snackTimer = setTimeout(() => bar.classList.remove("on"), 3000);
  }

  /* ---------- schedule ---------- */
  function blockHtml(b, withRoom) {
    const room = roomById(b.room);
    return `<strong>${esc(b.title)}</strong>
      <span class="t">${hhmm(b.start)}–${hhmm(b.start + b.duration)}${withRoom ? ` · ${esc(room.name)}` : ""}</span>
      <span class="who">${esc(b.organizer === ME ? "You" : b.organizer)}</span>`;
  }

  function renderDay() {
    const hours = [];
    for (let m = OPEN; m < CLOSE; m += 60) hours.push(`<div class="hour">${hhmm(m)}</div>`);
    const dayBookings = active().filter((b) => b.date === viewDate);
    const slotPx = 26 / SLOT; /* pixels per minute: matches --slot in styles.css */
    const cols = ROOMS.map((room) => {
      const items = dayBookings.filter((b) => b.room === room.id).sort((a, b) => a.start - b.start).map((b) => {
        const top = (b.start - OPEN) * slotPx;
        const height = Math.max(b.duration * slotPx - 3, 20);
        return `<li class="block${b.organizer === ME ? " mine-block" : ""}${b.duration <= SLOT ? " compact" : ""}" style="top:${top}px;height:${height}px">${blockHtml(b, false)}</li>`;
      }).join("");
      return `<section class="room-col" aria-label="${esc(room.name)} schedule">
        <div class="col-head"><strong>${esc(room.name)}</strong><span>${room.capacity} seats</span></div>
        <ul class="lane">${items}</ul>
      </section>`;
    }).join("");
    $("day-view").innerHTML = `<div class="axis" aria-hidden="true"><div class="col-head"></div>${hours.join("")}</div>${cols}`;
    $("schedule-title").textContent = longDate(viewDate);
  }

  function renderWeek() {
    const start = weekStart(viewDate);
    const days = [];
    for (let i = 0; i < 7; i++) {
      const iso = addDays(start, i);
      const list = active().filter((b) => b.date === iso).sort((a, b) => a.start - b.start || a.room.localeCompare(b.room));
      const label = parseIso(iso).toLocaleDateString("en-US", { weekday: "long", month: "short", day: "numeric" });
      const body = list.length
        ? `<ul>${list.map((b) => `<li class="${b.organizer === ME ? "mine-block" : ""}">${blockHtml(b, true)}</li>`).join("")}</ul>`
        : `<p class="none">No bookings</p>`;
      const heading = parseIso(iso).toLocaleDateString("en-US", { weekday: "short", month: "short", day: "numeric" });
      days.push(`<section class="week-day${iso === todayIso() ? " is-today" : ""}" aria-label="${label}"><h3>${heading}</h3>${body}</section>`);
    }
    $("week-view").innerHTML = days.join("");
    const end = addDays(start, 6);
    $("schedule-title").textContent = `Week of ${shortDate(start)} – ${shortDate(end)}, ${parseIso(end).getFullYear()}`;
  }

  function renderMine() {
    const today = todayIso();
    const mine = active()
      .filter((b) => b.organizer === ME && b.date >= today)
      .sort((a, b) => (a.date === b.date ? a.start - b.start : a.date < b.date ? -1 : 1));
    $("mine-list").innerHTML = mine.map((b) => `<li>
        <h3>${esc(b.title)}</h3>
        <p class="when">${shortDate(b.date)} · ${hhmm(b.start)}–${listedEnd(b)}</p>
        <p class="where">${esc(roomById(b.room).name)} · ${b.attendees} ${b.attendees === 1 ? "attendee" : "attendees"}</p>
        <button type="button" data-cancel="${b.id}" aria-label="Cancel ${esc(b.title)}">Cancel</button>
      </li>`).join("");
    $("mine-empty").hidden = mine.length > 0;
  }

  function renderRooms() {
    $("room-list").innerHTML = ROOMS.map((r) => `<li>
      <h3><svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><rect x="2" y="3" width="12" height="10" rx="2" fill="none" stroke="#c2410c" stroke-width="1.6"/><path d="M5 13v1.5M11 13v1.5" stroke="#c2410c" stroke-width="1.6"/></svg>${esc(r.name)}</h3>
      <p class="cap">Up to ${r.capacity} people</p>
      <p class="floor">${esc(r.floor)}</p>
      <ul class="amenities" aria-label="${esc(r.name)} amenities">${r.amenities.map((a) => `<li>${esc(a)}</li>`).join("")}</ul>
      <button type="button" class="btn btn-soft" data-room="${r.id}">Book ${esc(r.name)}</button>
    </li>`).join("");
  }

  function render() {
    $("day-view").hidden = view !== "day";
    $("week-view").hidden = view !== "week";
    $("view-day").setAttribute("aria-pressed", String(view === "day"));
    $("view-week").setAttribute("aria-pressed", String(view === "week"));
    if (view === "day") renderDay();
    else renderWeek();
    renderMine();
  }

  /* ---------- form ---------- */
  $("b-room").innerHTML = ROOMS.map((r) => `<option value="${r.id}">${esc(r.name)} (${r.capacity} people)</option>`).join("");
  const starts = [];
  for (let m = OPEN; m < CLOSE; m += SLOT) starts.push(`<option value="${m}">${hhmm(m)}</option>`);
  $("b-start").innerHTML = starts.join("");
  $("b-start").value = String(9 * 60);
  $("b-date").value = viewDate;

  const FIELD_ERRORS = ["title", "date", "time", "attendees"];
  function clearErrors() {
    FIELD_ERRORS.forEach((f) => { $(`err-${f}`).textContent = ""; });
    $("err-conflict").textContent = "";
    ["b-title", "b-date", "b-start", "b-attendees"].forEach((id) => $(id).removeAttribute("aria-invalid"));
  }
  function fieldError(field, inputId, text) {
    $(`err-${field}`).textContent = text;
    $(inputId).setAttribute("aria-invalid", "true");
  }

  function overlaps(a, b) {
    if (defect("double-booking")) return b.start <= a.start && a.start < b.start + b.duration;
    return a.start < b.start + b.duration && b.start < a.start + a.duration;
  }

  function attemptBooking() {
    clearErrors();
    const b = {
      title: $("b-title").value.trim(),
      room: $("b-room").value,
      date: $("b-date").value,
      start: Number($("b-start").value),
      duration: Number($("b-duration").value),
      attendees: Number($("b-attendees").value),
    };
    const room = roomById(b.room);
    let ok = true;
    if (!b.title) { fieldError("title", "b-title", "Give the meeting a title."); ok = false; }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(b.date)) { fieldError("date", "b-date", "Pick a date."); ok = false; }
    else if (b.date < todayIso()) { fieldError("date", "b-date", "You can't book a date in the past."); ok = false; }
    if (b.start + b.duration > CLOSE) { fieldError("time", "b-start", "Bookings must end by 18:00."); ok = false; }
    if (!Number.isInteger(b.attendees) || b.attendees < 1) {
      fieldError("attendees", "b-attendees", "At least one attendee is needed."); ok = false;
    } else if (b.attendees > room.capacity && !defect("capacity-not-enforced")) {
      fieldError("attendees", "b-attendees", `${room.name} holds up to ${room.capacity} people.`); ok = false;
    }
    if (!ok) return false;
    const pool = defect("cancel-keeps-slot") ? bookings : active();
    const clash = pool.find((x) => x.room === b.room && x.date === b.date && overlaps(b, x));
    if (clash) {
      $("err-conflict").textContent = `${room.name} is already booked ${hhmm(clash.start)}–${hhmm(clash.start + clash.duration)} ` +
        `for “${clash.title}”. Choose another time or room.`;
      return false;
    }
    const booking = { id: `b${Date.now().toString(36)}`, ...b, organizer: ME, status: "active" };
    bookings.push(booking);
    save();
    viewDate = b.date;
    $("b-title").value = "";
    notify(`${room.name} booked for ${shortDate(b.date)}, ${hhmm(b.start)}–${hhmm(b.start + b.duration)}.`);
    render();
    return true;
  }

  $("booking-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const btn = $("book-btn");
    if (btn.disabled) return;
    btn.disabled = true;
    btn.textContent = "Booking…";
    setTimeout(() => {
      const ok = attemptBooking();
      if (ok || !defect("submit-stays-disabled")) {
        btn.disabled = false;
        btn.textContent = "Book room";
      }
    }, 150);
  });

  /* ---------- cancelling ---------- */
  const dlg = $("cancel-dialog");
  $("mine-list").addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-cancel]");
    if (!btn) return;
    const b = bookings.find((x) => x.id === btn.dataset.cancel);
    cancelId = b.id;
    $("cancel-text").textContent = `“${b.title}” in ${roomById(b.room).name} on ${shortDate(b.date)} at ${hhmm(b.start)} will be released.`;
    dlg.showModal();
  });
  $("cancel-keep").addEventListener("click", () => { cancelId = null; dlg.close(); });
  $("cancel-confirm").addEventListener("click", () => {
    const b = bookings.find((x) => x.id === cancelId);
    if (b) {
      b.status = "cancelled";
      save();
      notify(`Booking “${b.title}” cancelled.`);
    }
    cancelId = null;
    dlg.close();
    render();
  });

  /* ---------- navigation ---------- */
  function shift(direction) {
    viewDate = addDays(viewDate, direction * (view === "week" ? 7 : 1));
    $("b-date").value = viewDate;
    render();
  }
  $("prev").addEventListener("click", () => shift(-1));
  $("next").addEventListener("click", () => shift(1));
  $("today").addEventListener("click", () => { viewDate = todayIso(); $("b-date").value = viewDate; render(); });
  $("view-day").addEventListener("click", () => { view = "day"; render(); });
  $("view-week").addEventListener("click", () => { view = "week"; render(); });
  $("room-list").addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-room]");
    if (!btn) return;
    $("b-room").value = btn.dataset.room;
    $("b-title").focus();
  });

  renderRooms();
  render();
})();

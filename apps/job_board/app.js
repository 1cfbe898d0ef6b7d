/* Stackhire: job search with filters, job details, saved jobs and applications kept on this device. */
(function () {
  "use strict";
  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const jobs = window.JOBS;
  const SAVED_KEY = "job_board.saved";
  const APPS_KEY = "job_board.applications";
  const $ = (id) => document.getElementById(id);
  const byId = Object.fromEntries(jobs.map((j) => [j.id, j]));

  const gbp = (n) => "£" + n.toLocaleString("en-GB");
  const salary = (j) => `${gbp(j.min)} – ${gbp(j.max)}`;
  const dateText = (iso) => new Date(iso + "T12:00:00").toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" });
  const summaryOf = (j) => (defect("placeholder-job-description") && j.id === "da-brightwater")
    ? "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua."
    : j.summary;

  function load(key) {
    try {
      const v = JSON.parse(localStorage.getItem(key) || "[]");
      return Array.isArray(v) ? v : [];
    } catch (e) {
      return [];
    }
  }
  let saved = load(SAVED_KEY).filter((id) => byId[id]);
  let applications = load(APPS_KEY).filter((a) => a && byId[a.id]);
  const hasApplied = (id) => applications.some((a) => a.id === id);
  let selected = null;

  /* ---------- search ---------- */
  const kw = $("kw"), loc = $("loc"), minIn = $("min-salary"), maxIn = $("max-salary"), sortSel = $("sort"), remote = $("remote");
  [...new Set(jobs.map((j) => j.location))].sort().forEach((l) => loc.add(new Option(l, l)));

  function salaryBounds() {
    const min = minIn.value === "" ? null : Number(minIn.value);
    const max = maxIn.value === "" ? null : Number(maxIn.value);
    const invalid = min !== null && max !== null && min > max;
    $("salary-error").textContent = invalid ? "Minimum salary can't be higher than the maximum salary." : "";
    minIn.setAttribute("aria-invalid", String(invalid));
    maxIn.setAttribute("aria-invalid", String(invalid));
    return invalid ? { min: null, max: null } : { min, max };
  }

  function matches(j, bounds) {
    const term = kw.value.trim().toLowerCase();
    if (term && ![j.title, j.company, ...j.skills].some((s) => s.toLowerCase().includes(term))) return false;
    if (loc.value && j.location !== loc.value) return false;
    if (bounds.min !== null && j.max < bounds.min) return false;
    if (bounds.max !== null && !defect("salary-max-ignored") && j.min > bounds.max) return false;
    if (remote.getAttribute("aria-checked") === "true") {
      const ok = defect("remote-toggle-includes-hybrid") ? j.mode !== "On-site" : j.mode === "Remote";
      if (!ok) return false;
    }
    return true;
  }

  const sorters = {
    newest: (a, b) => b.posted.localeCompare(a.posted) || a.title.localeCompare(b.title),
    salary: (a, b) => b.max - a.max || b.min - a.min,
  };

  function renderResults() {
    const bounds = salaryBounds();
    const found = jobs.filter((j) => matches(j, bounds)).sort(sorters[sortSel.value]);
    const ul = $("jobs");
    ul.innerHTML = "";
    found.forEach((j) => {
      const li = document.createElement("li");
      li.className = "job" + (selected === j.id ? " is-selected" : "");
      li.innerHTML = `
        <h3><button type="button" class="job-title">${j.title}</button></h3>
        <p class="job-company">${j.company} · ${j.location}</p>
        <p class="job-facts"><span class="mode mode-${j.mode.toLowerCase()}">${j.mode}</span><span class="salary">${salary(j)}</span></p>
        <p class="job-posted">Posted ${dateText(j.posted)}${hasApplied(j.id) ? ' · <strong class="applied">Applied</strong>' : ""}${saved.includes(j.id) ? ' · <span class="saved-flag">Saved</span>' : ""}</p>`;
      li.addEventListener("click", () => select(j.id));
      ul.appendChild(li);
    });
    $("job-count").textContent = found.length === 1 ? "1 job" : `${found.length} jobs`;
    $("no-results").hidden = found.length > 0;
  }

  [kw, minIn, maxIn].forEach((el) => el.addEventListener("input", renderResults));
  [loc, sortSel].forEach((el) => el.addEventListener("change", renderResults));
  remote.addEventListener("click", () => {
    remote.setAttribute("aria-checked", String(remote.getAttribute("aria-checked") !== "true"));
    renderResults();
  });
  $("search-form").addEventListener("submit", (e) => { e.preventDefault(); renderResults(); });
  $("reset").addEventListener("click", () => {
    $("search-form").reset();
    remote.setAttribute("aria-checked", "false");
    renderResults();
    kw.focus();
  });

  /* ---------- detail ---------- */
  function select(id) {
    selected = id;
    renderDetail();
    renderResults();
  }

  function renderDetail() {
    const j = byId[selected];
    if (!j) return;
    const applied = hasApplied(j.id);
    const lockApply = applied && !defect("duplicate-application");
    const isSaved = saved.includes(j.id);
    $("detail").innerHTML = `
      <header class="detail-head">
        <p class="detail-company">${j.company}</p>
        <h2>${j.title}</h2>
        <ul class="detail-facts" aria-label="Key facts">
          <li>${j.location}</li><li>${j.mode}</li><li class="salary">${salary(j)} a year</li><li>Posted ${dateText(j.posted)}</li>
        </ul>
        <div class="detail-actions">
          <button type="button" class="btn btn-primary" id="apply-btn" ${lockApply ? "disabled" : ""}>${lockApply ? "✓ Applied" : "Apply now"}</button>
          <button type="button" class="btn btn-ghost" id="save-btn" aria-pressed="${isSaved}">${isSaved ? "★ Saved" : "☆ Save job"}</button>
        </div>
      </header>
      <ul class="skills" aria-label="Skills">${j.skills.map((s) => `<li>${s}</li>`).join("")}</ul>
      <h3>About the role</h3>
      <p class="summary">${summaryOf(j)}</p>
      <h3>What you'll do</h3>
      <ul>${j.duties.map((d) => `<li>${d}</li>`).join("")}</ul>
      <h3>What we're looking for</h3>
      <ul>${j.needs.map((d) => `<li>${d}</li>`).join("")}</ul>`;
    $("apply-btn").addEventListener("click", () => openApply(j.id));
    $("save-btn").addEventListener("click", () => toggleSave(j.id));
  }

  /* ---------- saved jobs ---------- */
  function toggleSave(id) {
    const j = byId[id];
    if (saved.includes(id)) {
      saved = saved.filter((x) => x !== id);
      toast(`Removed ${j.title} from saved jobs`);
    } else {
      saved.push(id);
      toast(`Saved ${j.title} at ${j.company}`);
    }
    localStorage.setItem(SAVED_KEY, JSON.stringify(saved));
    refresh();
  }

  function renderSaved() {
    const ul = $("saved-list");
    ul.innerHTML = "";
    saved.map((id) => byId[id]).forEach((j) => {
      const li = document.createElement("li");
      li.innerHTML = `<div><h3>${j.title}</h3><p>${j.company} · ${j.location} · ${salary(j)}</p></div>`;
      const rm = document.createElement("button");
      rm.type = "button";
      rm.className = "btn btn-ghost";
      rm.textContent = "Remove";
      rm.setAttribute("aria-label", `Remove ${j.title} from saved jobs`);
      rm.addEventListener("click", () => toggleSave(j.id));
      li.appendChild(rm);
      ul.appendChild(li);
    });
    $("saved-empty").hidden = saved.length > 0;
    $("saved-count").textContent = String(saved.length);
  }

  function renderApplications() {
    const ul = $("app-list");
    ul.innerHTML = applications.map((a) => {
      const j = byId[a.id];
      return `<li><div><h3>${j.title}</h3><p>${j.company} · applied ${dateText(a.date)}</p></div><span class="status">Application sent</span></li>`;
    }).join("");
    $("apps-empty").hidden = applications.length > 0;
    $("app-count").textContent = String(applications.length);
  }

  /* ---------- applying ---------- */
  const dialog = $("apply-dialog");
  const form = $("apply-form");
  let applyingFor = null;

  function openApply(id) {
    applyingFor = id;
    const j = byId[id];
    $("apply-title").textContent = `Apply for ${j.title}`;
    $("apply-sub").textContent = `${j.company} · ${j.location} · ${salary(j)}`;
    form.reset();
    form.querySelectorAll(".error").forEach((e) => { e.textContent = ""; });
    form.querySelectorAll("[aria-invalid]").forEach((e) => e.removeAttribute("aria-invalid"));
    dialog.showModal();
    $("a-name").focus();
  }

  const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
  function setError(input, msg) {
    $(input.id + "-error").textContent = msg;
    input.setAttribute("aria-invalid", msg ? "true" : "false");
    return !msg;
  }
  function validUrl(v) {
    try {
      const u = new URL(v);
      return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.includes(".");
    } catch (e) {
      return false;
    }
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("a-name"), email = $("a-email"), cv = $("a-cv");
    const ok = [
      setError(name, name.value.trim() ? "" : "Please enter your full name."),
      setError(email, !email.value.trim() ? "Please enter your email address."
        : EMAIL_RE.test(email.value.trim()) ? "" : "Please enter a valid email address."),
      setError(cv, !cv.value.trim() ? "Please add a link to your CV or portfolio."
        : validUrl(cv.value.trim()) ? "" : "Please enter a full link starting with https://"),
    ].every(Boolean);
    if (!ok) {
      form.querySelector('[aria-invalid="true"]').focus();
      return;
    }
    if (hasApplied(applyingFor) && !defect("duplicate-application")) {
      dialog.close();
      return;
    }
    applications.push({ id: applyingFor, date: new Date().toISOString().slice(0, 10) });
    localStorage.setItem(APPS_KEY, JSON.stringify(applications));
    dialog.close();
    const j = byId[applyingFor];
    if (!defect("apply-toast-missing")) toast(`Application sent to ${j.company}. Good luck!`);
    refresh();
  });
  $("apply-cancel").addEventListener("click", () => dialog.close());

  /* ---------- views ---------- */
  document.querySelectorAll(".tab").forEach((tab) => tab.addEventListener("click", () => {
    document.querySelectorAll(".tab").forEach((t) => t.removeAttribute("aria-current"));
    tab.setAttribute("aria-current", "page");
    ["search", "saved", "applications"].forEach((v) => { $("view-" + v).hidden = v !== tab.dataset.view; });
  }));

  let toastTimer;
  function toast(text) {
    const el = $("toast");
    el.textContent = text;
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, 3000);
  }

  function refresh() {
    renderResults();
    renderSaved();
    renderApplications();
    if (selected) renderDetail();
  }
  refresh();
})();

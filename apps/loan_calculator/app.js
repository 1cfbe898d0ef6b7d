/* Northstar Loan Calculator: payment maths, amortization schedule and scenario comparison. */
(() => {
  'use strict';

  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const STORE_KEY = 'loan_calculator.scenarios';
  const MAX_SCENARIOS = 4;
  const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  const monthName = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const byId = (id) => document.getElementById(id);
  const round2 = (x) => Math.round((x + Number.EPSILON) * 100) / 100;
  const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

  const form = byId('loan-form');
  const calcBtn = byId('calc-btn');
  let current = null;
  let view = 'monthly';
  let scenarios = loadScenarios();

  /* ---------- validation ---------- */
  const rules = {
    amount(raw) {
      if (raw.trim() === '') return 'Enter a loan amount.';
      const v = Number(raw);
      if (!Number.isFinite(v) || v < 1000 || v > 5000000) return 'Loan amount must be between $1,000 and $5,000,000.';
      return '';
    },
    rate(raw) {
      if (raw.trim() === '') return 'Enter an annual interest rate.';
      const v = Number(raw);
      const belowMin = defect('negative-rate-accepted') ? false : v < 0;
      if (!Number.isFinite(v) || belowMin || v > 25) return 'Interest rate must be between 0% and 25%.';
      return '';
    },
    term(raw) {
      if (raw.trim() === '') return 'Enter a loan term in years.';
      const v = Number(raw);
      if (!Number.isInteger(v) || v < 1 || v > 40) return 'Loan term must be a whole number of years from 1 to 40.';
      return '';
    },
    start(raw) {
      return /^\d{4}-\d{2}$/.test(raw) ? '' : 'Choose the month of your first payment.';
    },
  };

  function checkField(name) {
    const input = byId(name);
    const message = rules[name](input.value);
    byId(`${name}-error`).textContent = message;
    input.setAttribute('aria-invalid', message ? 'true' : 'false');
    return !message;
  }

  function allValid() {
    return Object.keys(rules).every((name) => rules[name](byId(name).value) === '');
  }

  function refreshButton() {
    if (!allValid()) {
      calcBtn.disabled = true;
    } else if (!defect('calc-button-stays-disabled')) {
      calcBtn.disabled = false;
    }
  }

  Object.keys(rules).forEach((name) => {
    byId(name).addEventListener('input', () => { checkField(name); refreshButton(); });
  });

  /* ---------- maths ---------- */
  function monthlyPayment(principal, annualRate, months) {
    const r = annualRate / 100 / 12;
    if (r === 0 && !defect('zero-rate-nan')) return principal / months;
    const growth = Math.pow(1 + r, months);
    return (principal * r * growth) / (growth - 1);
  }

  function buildSchedule(principal, annualRate, months, payment) {
    const r = annualRate / 100 / 12;
    const rows = [];
    let balance = principal;
    for (let i = 1; i <= months; i += 1) {
      const interest = round2(balance * r);
      let toPrincipal = round2(payment - interest);
      if (i === months || toPrincipal > balance) toPrincipal = balance;
      balance = round2(balance - toPrincipal);
      rows.push({ n: i, interest, principal: toPrincipal, payment: round2(toPrincipal + interest), balance });
    }
    return rows;
  }

  function addMonths(ym, count) {
    const [y, m] = ym.split('-').map(Number);
    return new Date(Date.UTC(y, m - 1 + count, 1));
  }

  function calculate() {
    const amount = Number(byId('amount').value);
    const rate = Number(byId('rate').value);
    const years = Number(byId('term').value);
    const start = byId('start').value;
    const months = years * 12;
    const payment = round2(monthlyPayment(amount, rate, months));
    const rows = buildSchedule(amount, rate, months, payment);
    const totalInterest = round2(rows.reduce((s, r) => s + r.interest, 0));
    current = {
      label: byId('label').value.trim(),
      amount, rate, years, start, months, payment, rows, totalInterest,
      totalPaid: round2(amount + totalInterest),
    };
    renderResults();
    renderSchedule();
  }

  /* ---------- rendering ---------- */
  function renderResults() {
    const c = current;
    byId('monthly-payment').textContent = usd.format(c.payment);
    byId('result-summary').textContent = `${usd.format(c.amount)} at ${c.rate}% over ${c.years} years`;
    byId('total-interest').textContent = usd.format(c.totalInterest);
    byId('total-paid').textContent = usd.format(c.totalPaid);
    byId('payment-count').textContent = String(c.months);
    byId('payoff-date').textContent = monthName.format(addMonths(c.start, c.months - 1));
    const share = c.totalPaid > 0 ? Math.max(0, Math.min(100, (c.amount / c.totalPaid) * 100)) : 100;
    byId('split-principal').style.width = `${share}%`;
    byId('split-interest').style.width = `${100 - share}%`;
  }

  function renderSchedule() {
    const c = current;
    const head = byId('schedule-head');
    const body = byId('schedule-body');
    const foot = byId('schedule-foot');
    const shownCount = defect('schedule-missing-last-row') ? c.rows.length - 1 : c.rows.length;
    const shown = c.rows.slice(0, shownCount);
    const sumOf = (list, key) => round2(list.reduce((s, r) => s + r[key], 0));
    byId('schedule-caption').textContent = `${c.months} monthly payments of ${usd.format(c.payment)}, first due ${monthName.format(addMonths(c.start, 0))}`;
    if (view === 'monthly') {
      head.innerHTML = '<tr><th scope="col">#</th><th scope="col">Date</th><th scope="col">Payment</th><th scope="col">Principal</th><th scope="col">Interest</th><th scope="col">Balance</th></tr>';
      body.innerHTML = shown.map((r) => `<tr><td>${r.n}</td><td>${monthName.format(addMonths(c.start, r.n - 1))}</td><td>${usd.format(r.payment)}</td><td>${usd.format(r.principal)}</td><td>${usd.format(r.interest)}</td><td>${usd.format(r.balance)}</td></tr>`).join('');
      foot.innerHTML = `<tr><td>Total</td><td></td><td>${usd.format(sumOf(shown, 'payment'))}</td><td>${usd.format(sumOf(shown, 'principal'))}</td><td>${usd.format(sumOf(shown, 'interest'))}</td><td></td></tr>`;
    } else {
      const years = [];
      shown.forEach((r) => {
        const y = Math.floor((r.n - 1) / 12);
        if (!years[y]) years[y] = { principal: 0, interest: 0, balance: 0 };
        years[y].principal += r.principal;
        years[y].interest += r.interest;
        years[y].balance = r.balance;
      });
      head.innerHTML = '<tr><th scope="col">Year</th><th scope="col">Principal paid</th><th scope="col">Interest paid</th><th scope="col">Ending balance</th></tr>';
      body.innerHTML = years.map((y, i) => `<tr><td>Year ${i + 1}</td><td>${usd.format(y.principal)}</td><td>${usd.format(y.interest)}</td><td>${usd.format(y.balance)}</td></tr>`).join('');
      foot.innerHTML = `<tr><td>Total</td><td>${usd.format(sumOf(shown, 'principal'))}</td><td>${usd.format(sumOf(shown, 'interest'))}</td><td></td></tr>`;
    }
  }

  function setView(next) {
    view = next;
    byId('view-monthly').setAttribute('aria-pressed', String(next === 'monthly'));
    byId('view-yearly').setAttribute('aria-pressed', String(next === 'yearly'));
    if (current) renderSchedule();
  }

  /* ---------- scenarios ---------- */
  function loadScenarios() {
    const key = defect('scenarios-not-persisted') ? 'loan-calculator-scenarios' : STORE_KEY;
    try {
      const parsed = JSON.parse(localStorage.getItem(key) || '[]');
      return Array.isArray(parsed) ? parsed : [];
    } catch (e) {
      return [];
    }
  }

  function saveScenarios() {
    localStorage.setItem(STORE_KEY, JSON.stringify(scenarios));
  }

  function nextScenarioName() {
    const used = scenarios.map((s) => Number((/^Scenario (\d+)$/.exec(s.name) || [])[1] || 0));
    return `Scenario ${Math.max(0, ...used) + 1}`;
  }

  function addScenario() {
    if (!current) return;
    if (scenarios.length >= MAX_SCENARIOS) {
      toast('You can compare up to 4 scenarios. Remove one to add another.', 'warn');
      return;
    }
    const c = current;
    const name = c.label || nextScenarioName();
    scenarios.push({
      id: `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`,
      name, amount: c.amount, rate: c.rate, years: c.years,
      payment: c.payment, totalInterest: c.totalInterest, totalPaid: c.totalPaid,
    });
    saveScenarios();
    renderCompare();
    toast(`“${name}” added to comparison.`);
  }

  function removeScenario(id) {
    const gone = scenarios.find((s) => s.id === id);
    scenarios = scenarios.filter((s) => s.id !== id);
    saveScenarios();
    renderCompare();
    if (gone) toast(`“${gone.name}” removed from comparison.`);
  }

  function renderCompare() {
    const empty = scenarios.length === 0;
    byId('compare-empty').hidden = !empty;
    byId('compare-wrap').hidden = empty;
    const cheapest = scenarios.length > 1 ? Math.min(...scenarios.map((s) => s.totalPaid)) : null;
    byId('compare-body').innerHTML = scenarios.map((s) => {
      const best = cheapest !== null && s.totalPaid === cheapest;
      return `<tr class="${best ? 'best' : ''}">
        <th scope="row">${escapeHtml(s.name)}${best ? '<span class="badge">Lowest cost</span>' : ''}</th>
        <td>${usd.format(s.amount)}</td><td>${s.rate}%</td><td>${s.years} yrs</td>
        <td>${usd.format(s.payment)}</td><td>${usd.format(s.totalInterest)}</td><td>${usd.format(s.totalPaid)}</td>
        <td><button type="button" class="btn link" data-remove="${s.id}" aria-label="Remove ${escapeHtml(s.name)}">Remove</button></td>
      </tr>`;
    }).join('');
  }

  /* ---------- toasts ---------- */
  function toast(message, tone = 'info') {
    const el = document.createElement('div');
    el.className = `toast ${tone}`;
    el.textContent = message;
    byId('toasts').appendChild(el);
    setTimeout(() => el.remove(), 3000);
  }

  /* ---------- wiring ---------- */
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const results = Object.keys(rules).map(checkField);
    if (results.every(Boolean)) {
      calculate();
    } else {
      const first = Object.keys(rules).find((name) => byId(name).getAttribute('aria-invalid') === 'true');
      if (first) byId(first).focus();
    }
  });
  byId('save-scenario').addEventListener('click', addScenario);
  byId('view-monthly').addEventListener('click', () => setView('monthly'));
  byId('view-yearly').addEventListener('click', () => setView('yearly'));
  byId('compare-body').addEventListener('click', (event) => {
    const btn = event.target.closest('[data-remove]');
    if (btn) removeScenario(btn.dataset.remove);
  });

  const now = new Date();
  const next = new Date(Date.UTC(now.getFullYear(), now.getMonth() + 1, 1));
  byId('start').value = `${next.getUTCFullYear()}-${String(next.getUTCMonth() + 1).padStart(2, '0')}`;
  calculate();
  renderCompare();
})();

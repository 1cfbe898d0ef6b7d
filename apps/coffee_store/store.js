/* Ember & Oak storefront: product grid with grind/size options, cart drawer, shipping threshold, discount code, checkout. */
(() => {
  'use strict';

  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const COFFEES = window.EMBER_OAK_COFFEES.map((c) => (
    c.id === 'sumatra' && defect('placeholder-tasting-notes')
      ? { ...c, notes: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit.' }
      : c
  ));
  const GRINDS = ['Whole bean', 'Espresso', 'Filter / pour-over', 'French press'];
  const SIZES = [['250g', '250 g'], ['500g', '500 g'], ['1kg', '1 kg']];
  const SIZE_LABEL = Object.fromEntries(SIZES);
  const ROAST_COLOR = { Light: '#c8925a', Medium: '#8b5a2b', Dark: '#4a2c17' };
  const FREE_SHIPPING_AT = 50;
  const SHIPPING = 5.95;
  const CODES = { WELCOME15: 15 };
  const CART_KEY = 'coffee_store.cart';
  const ORDERS_KEY = 'coffee_store.orders';
  const $ = (id) => document.getElementById(id);
  const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  const round2 = (x) => Math.round((x + Number.EPSILON) * 100) / 100;
  const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const coffee = (id) => COFFEES.find((c) => c.id === id);

  let cart = readCart();
  const choice = Object.fromEntries(COFFEES.map((c) => [c.id, { grind: GRINDS[0], size: '250g' }]));

  function readCart() {
    const key = defect('cart-not-persisted') ? 'coffee_store.basket' : CART_KEY;
    try {
      const stored = JSON.parse(localStorage.getItem(key));
      if (stored && Array.isArray(stored.lines)) return stored;
    } catch (e) { /* fall through to an empty cart */ }
    return { lines: [], code: null };
  }

  function writeCart() {
    localStorage.setItem(CART_KEY, JSON.stringify(cart));
    renderCount();
    renderDrawer();
  }

  function totals() {
    const subtotal = round2(cart.lines.reduce((s, l) => s + coffee(l.id).prices[l.size] * l.qty, 0));
    const discount = cart.code ? round2((subtotal * CODES[cart.code]) / 100) : 0;
    const free = defect('free-shipping-boundary') ? subtotal > FREE_SHIPPING_AT : subtotal >= FREE_SHIPPING_AT;
    const shipping = cart.lines.length && !free ? SHIPPING : 0;
    return { subtotal, discount, shipping, free, total: round2(subtotal - discount + shipping) };
  }

  /* ---------- product grid ---------- */
  function bagSvg(c) {
    return `<svg class="bag" viewBox="0 0 120 140" role="img" aria-label="${esc(c.name)} coffee bag">
      <path d="M22 24h76l8 108H14z" fill="${ROAST_COLOR[c.roast]}"/>
      <path d="M22 24l8-14h60l8 14z" fill="#2f1d10" opacity=".55"/>
      <rect x="30" y="58" width="60" height="44" rx="4" fill="#f8efe3"/>
      <text x="60" y="76" text-anchor="middle" font-size="7.5" font-family="Georgia, serif" fill="#3b2414">EMBER &amp; OAK</text>
      <text x="60" y="91" text-anchor="middle" font-size="6.5" font-family="Georgia, serif" fill="#6f4e37">${esc(c.roast.toUpperCase())} ROAST</text>
    </svg>`;
  }

  function visibleCoffees() {
    const roast = $('roast-filter').value;
    const sort = $('sort').value;
    const list = COFFEES.filter((c) => roast === 'all' || c.roast === roast);
    if (sort === 'price-asc') list.sort((a, b) => a.prices['250g'] - b.prices['250g']);
    if (sort === 'price-desc') list.sort((a, b) => b.prices['250g'] - a.prices['250g']);
    return list;
  }

  function renderGrid() {
    const list = visibleCoffees();
    $('shown-count').textContent = `${list.length} coffee${list.length === 1 ? '' : 's'}`;
    $('product-grid').innerHTML = list.map((c) => {
      const pick = choice[c.id];
      return `
      <article class="product" data-id="${c.id}" aria-labelledby="name-${c.id}">
        <div class="product-art">${bagSvg(c)}<span class="roast-pill roast-${c.roast.toLowerCase()}">${c.roast} roast</span></div>
        <h2 id="name-${c.id}">${esc(c.name)}</h2>
        <p class="origin">${esc(c.origin)}</p>
        <p class="notes">${esc(c.notes)}</p>
        <div class="options">
          <label>Grind
            <select data-opt="grind" aria-label="Grind for ${esc(c.name)}">${GRINDS.map((g) => `<option ${g === pick.grind ? 'selected' : ''}>${g}</option>`).join('')}</select>
          </label>
          <label>Size
            <select data-opt="size" aria-label="Size for ${esc(c.name)}">${SIZES.map(([v, t]) => `<option value="${v}" ${v === pick.size ? 'selected' : ''}>${t}</option>`).join('')}</select>
          </label>
        </div>
        <div class="buy-row">
          <p class="price" aria-label="Price of ${esc(c.name)}">${usd.format(c.prices[pick.size])}<span> / ${SIZE_LABEL[pick.size]}</span></p>
          <button type="button" class="btn add" data-add aria-label="Add ${esc(c.name)} to cart">Add to cart</button>
        </div>
      </article>`;
    }).join('');
  }

  $('product-grid').addEventListener('change', (e) => {
    const select = e.target.closest('select[data-opt]');
    if (!select) return;
    const card = select.closest('.product');
    const c = coffee(card.dataset.id);
    choice[c.id][select.dataset.opt] = select.value;
    if (select.dataset.opt === 'size' && !defect('card-price-stale')) {
      card.querySelector('.price').innerHTML = `${usd.format(c.prices[select.value])}<span> / ${SIZE_LABEL[select.value]}</span>`;
    }
  });

  $('product-grid').addEventListener('click', (e) => {
    if (!e.target.closest('[data-add]')) return;
    const c = coffee(e.target.closest('.product').dataset.id);
    const { grind, size } = choice[c.id];
    const same = (l) => l.id === c.id && l.size === size && (defect('grind-merge') || l.grind === grind);
    const existing = cart.lines.find(same);
    if (existing) existing.qty += 1;
    else cart.lines.push({ id: c.id, grind, size, qty: 1 });
    writeCart();
    toast(`Added ${c.name} (${grind}, ${SIZE_LABEL[size]}) to your cart.`);
  });

  $('roast-filter').addEventListener('change', renderGrid);
  $('sort').addEventListener('change', renderGrid);

  /* ---------- cart drawer ---------- */
  function renderCount() {
    const n = cart.lines.reduce((s, l) => s + l.qty, 0);
    $('cart-count').textContent = String(n);
    $('cart-button').setAttribute('aria-label', `Cart, ${n} item${n === 1 ? '' : 's'}`);
  }

  function lineLabel(l) {
    return `${coffee(l.id).name} (${l.grind}, ${SIZE_LABEL[l.size]})`;
  }

  function renderDrawer() {
    const body = $('drawer-body');
    if (!cart.lines.length) {
      body.innerHTML = `<div class="cart-empty"><svg width="64" height="64" viewBox="0 0 64 64" aria-hidden="true"><path d="M14 22h36l-3 32H17z" fill="#f1e4d3"/><path d="M24 22a8 8 0 0 1 16 0" stroke="#c8925a" stroke-width="3" fill="none"/></svg>
        <p><strong>Your cart is empty.</strong></p><p>Fresh beans are one click away.</p>
        <button type="button" class="btn" data-continue>Browse coffees</button></div>`;
      return;
    }
    const t = totals();
    const missing = round2(FREE_SHIPPING_AT - t.subtotal);
    const progress = Math.min(100, (t.subtotal / FREE_SHIPPING_AT) * 100);
    body.innerHTML = `
      <div class="ship-meter">
        <p id="ship-message">${t.free ? 'You’ve unlocked <strong>free shipping</strong>!' : `You’re <strong>${usd.format(Math.max(missing, 0.01))}</strong> away from free shipping.`}</p>
        <div class="meter" role="progressbar" aria-label="Progress to free shipping" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${Math.round(progress)}"><span style="width:${progress}%"></span></div>
      </div>
      <ul class="lines">
        ${cart.lines.map((l, i) => `
          <li class="line" data-index="${i}">
            <div class="line-main">
              <h3>${esc(coffee(l.id).name)}</h3>
              <p>${esc(l.grind)} · ${SIZE_LABEL[l.size]} · ${usd.format(coffee(l.id).prices[l.size])}</p>
              <div class="qty">
                <button type="button" data-delta="-1" aria-label="Decrease quantity of ${esc(lineLabel(l))}" ${l.qty <= 1 ? 'disabled' : ''}>−</button>
                <span aria-label="Quantity of ${esc(lineLabel(l))}">${l.qty}</span>
                <button type="button" data-delta="1" aria-label="Increase quantity of ${esc(lineLabel(l))}">+</button>
              </div>
            </div>
            <div class="line-side">
              <span class="line-total">${usd.format(coffee(l.id).prices[l.size] * l.qty)}</span>
              <button type="button" class="text-btn" data-remove aria-label="Remove ${esc(lineLabel(l))}">Remove</button>
            </div>
          </li>`).join('')}
      </ul>
      <form class="code-form" id="code-form" novalidate>
        <label for="discount-code">Discount code</label>
        <div class="code-row"><input id="discount-code" type="text" autocomplete="off" placeholder="Enter code"><button type="submit" class="btn light">Apply</button></div>
        <p class="code-msg" id="code-msg" role="alert"></p>
      </form>
      ${cart.code ? `<p class="code-chip">Code <strong>${cart.code}</strong> applied (${CODES[cart.code]}% off) <button type="button" class="text-btn" data-drop-code>Remove</button></p>` : ''}
      ${totalsHtml(t)}
      <button type="button" class="btn block" data-checkout>Checkout · ${usd.format(t.total)}</button>`;
  }

  function totalsHtml(t) {
    return `
      <dl class="money">
        <div><dt>Subtotal</dt><dd>${usd.format(t.subtotal)}</dd></div>
        ${t.discount ? `<div><dt>Discount (${cart.code})</dt><dd>−${usd.format(t.discount)}</dd></div>` : ''}
        <div><dt>Shipping</dt><dd>${t.shipping ? usd.format(t.shipping) : 'Free'}</dd></div>
        <div class="total"><dt>Total</dt><dd>${usd.format(t.total)}</dd></div>
      </dl>`;
  }

  $('drawer-body').addEventListener('click', (e) => {
    const li = e.target.closest('.line');
    if (e.target.closest('[data-continue]')) return closeCart();
    if (e.target.closest('[data-checkout]')) { closeCart(); location.hash = '#checkout'; return; }
    if (e.target.closest('[data-drop-code]')) { cart.code = null; writeCart(); return; }
    if (!li) return;
    const index = Number(li.dataset.index);
    if (e.target.closest('[data-remove]')) {
      const [gone] = cart.lines.splice(index, 1);
      if (!cart.lines.length) cart.code = null;
      writeCart();
      toast(`Removed ${lineLabel(gone)}.`);
    } else if (e.target.closest('[data-delta]')) {
      const line = cart.lines[index];
      line.qty = Math.max(1, line.qty + Number(e.target.closest('[data-delta]').dataset.delta));
      writeCart();
    }
  });

  $('drawer-body').addEventListener('submit', (e) => {
    e.preventDefault();
    const code = $('discount-code').value.trim().toUpperCase();
    if (!code) { $('code-msg').textContent = 'Enter a discount code.'; return; }
    if (!CODES[code]) { $('code-msg').textContent = `“${code}” isn’t a valid discount code.`; return; }
    cart.code = code;
    writeCart();
    toast(`Discount code ${code} applied.`);
  });

  let lastFocus = null;
  function openCart() {
    lastFocus = document.activeElement;
    renderDrawer();
    $('cart-drawer').hidden = false;
    $('drawer-backdrop').hidden = false;
    $('close-cart').focus();
  }
  function closeCart() {
    $('cart-drawer').hidden = true;
    $('drawer-backdrop').hidden = true;
    if (lastFocus) lastFocus.focus();
  }
  $('cart-button').addEventListener('click', openCart);
  $('close-cart').addEventListener('click', closeCart);
  $('drawer-backdrop').addEventListener('click', closeCart);
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && !$('cart-drawer').hidden) closeCart(); });

  /* ---------- checkout ---------- */
  const RULES = {
    'ck-name': (v) => (v.trim() ? '' : 'Enter your full name.'),
    'ck-email': (v) => (/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(v.trim()) ? '' : 'Enter a valid email address.'),
    'ck-address': (v) => (v.trim().length >= 5 ? '' : 'Enter your street address.'),
    'ck-city': (v) => (v.trim() ? '' : 'Enter your city.'),
    'ck-zip': (v) => (/^\d{5}(-\d{4})?$/.test(v.trim()) ? '' : 'Enter a 5-digit ZIP code.'),
  };

  function renderCheckout() {
    const t = totals();
    const field = (id, label, attrs) => `
      <div class="form-field">
        <label for="${id}">${label}</label>
        <input id="${id}" ${attrs} aria-describedby="${id}-err">
        <p class="err" id="${id}-err"></p>
      </div>`;
    $('checkout').innerHTML = cart.lines.length ? `
      <a href="#shop" class="back-link">← Continue shopping</a>
      <h1 id="checkout-title">Checkout</h1>
      <div class="checkout-grid">
        <form id="checkout-form" class="card-box" novalidate>
          <h2>Shipping details</h2>
          ${field('ck-name', 'Full name', 'type="text" autocomplete="name"')}
          ${field('ck-email', 'Email', 'type="email" autocomplete="email"')}
          ${field('ck-address', 'Street address', 'type="text" autocomplete="street-address"')}
          <div class="pair">
            ${field('ck-city', 'City', 'type="text" autocomplete="address-level2"')}
            ${field('ck-zip', 'ZIP code', 'type="text" inputmode="numeric" autocomplete="postal-code"')}
          </div>
          <button type="submit" class="btn block">Place order · ${usd.format(t.total)}</button>
        </form>
        <aside class="card-box" aria-labelledby="ck-summary">
          <h2 id="ck-summary">Order summary</h2>
          <ul class="summary-lines">${cart.lines.map((l) => `<li><span>${l.qty} × ${esc(lineLabel(l))}</span><span>${usd.format(coffee(l.id).prices[l.size] * l.qty)}</span></li>`).join('')}</ul>
          ${totalsHtml(t)}
        </aside>
      </div>` : `
      <h1 id="checkout-title">Checkout</h1>
      <div class="card-box"><p>Your cart is empty.</p><a href="#shop" class="btn">Browse coffees</a></div>`;
    const form = $('checkout-form');
    if (form) form.addEventListener('submit', (e) => { e.preventDefault(); placeOrder(); });
  }

  function placeOrder() {
    let firstBad = null;
    Object.entries(RULES).forEach(([id, rule]) => {
      const msg = rule($(id).value);
      $(`${id}-err`).textContent = msg;
      $(id).setAttribute('aria-invalid', msg ? 'true' : 'false');
      if (msg && !firstBad) firstBad = $(id);
    });
    if (firstBad) { firstBad.focus(); return; }
    const t = totals();
    const order = {
      number: `EO-${Math.floor(10000 + Math.random() * 90000)}`,
      email: $('ck-email').value.trim(),
      name: $('ck-name').value.trim(),
      lines: cart.lines.map((l) => ({ label: lineLabel(l), qty: l.qty })),
      ...t,
    };
    const orders = JSON.parse(localStorage.getItem(ORDERS_KEY) || '[]');
    orders.push(order);
    localStorage.setItem(ORDERS_KEY, JSON.stringify(orders));
    cart = { lines: [], code: null };
    writeCart();
    $('confirmation').innerHTML = `
      <div class="card-box thanks">
        <h1 id="confirmation-title">Thank you, ${esc(order.name.split(' ')[0])}!</h1>
        <p>Your order <strong>${order.number}</strong> is confirmed. A receipt is on its way to <strong>${esc(order.email)}</strong>.</p>
        <ul class="summary-lines">${order.lines.map((l) => `<li><span>${l.qty} × ${esc(l.label)}</span></li>`).join('')}</ul>
        <p>Total charged: <strong>${usd.format(order.total)}</strong> · Roasted next Tuesday, delivered in 3–5 business days.</p>
        <a href="#shop" class="btn">Back to the shop</a>
      </div>`;
    location.hash = '#confirmation';
  }

  /* ---------- views & toasts ---------- */
  function showView() {
    const hash = location.hash.replace('#', '');
    const onCheckout = hash === 'checkout';
    const onConfirmation = hash === 'confirmation' && $('confirmation').innerHTML.trim() !== '';
    $('shop').hidden = onCheckout || onConfirmation;
    $('checkout').hidden = !onCheckout;
    $('confirmation').hidden = !onConfirmation;
    if (onCheckout) renderCheckout();
    if (onCheckout || onConfirmation) window.scrollTo(0, 0);
  }

  function toast(text) {
    const el = document.createElement('div');
    el.className = 'toast';
    el.textContent = text;
    $('toasts').appendChild(el);
    setTimeout(() => el.remove(), 3000);
  }

  window.addEventListener('hashchange', showView);
  renderGrid();
  renderCount();
  renderDrawer();
  showView();
})();

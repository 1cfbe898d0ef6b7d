window.WT_DEFECTS = ["cart-badge-stale", "limit-per-order-bypass", "search-ignores-category"];

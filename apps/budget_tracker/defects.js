window.WT_DEFECTS = ["category-filter-ignores-month", "euro-sign-on-expenses", "negative-amount-accepted"];

window.WT_DEFECTS = ["count-includes-hint", "move-not-persisted", "wip-limit-off-by-one"];

window.WT_DEFECTS = ["calc-button-stays-disabled", "negative-rate-accepted", "schedule-missing-last-row"];

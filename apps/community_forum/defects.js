window.WT_DEFECTS = ["reply-count-stale", "reply-form-not-cleared", "upvote-repeatable"];

/* Seed content for a fresh forum. Times are relative ("hours ago") and fixed on first load. */
window.TRAILHEAD_SEED = {
  me: { handle: "jordan_k", name: "Jordan Kim" },
  categories: [
    { id: "gear", name: "Gear Talk", blurb: "Packs, shelters, sleep systems and everything you carry." },
    { id: "trips", name: "Trip Reports", blurb: "Share where you went and how it went." },
    { id: "conditions", name: "Trail Conditions", blurb: "Closures, snow levels, washouts and water sources." },
    { id: "beginners", name: "Beginners' Corner", blurb: "No question is too basic here." },
    { id: "meetups", name: "Meetups", blurb: "Find people to hike with near you." },
  ],
  threads: [
    {
      id: "t1", category: "gear", author: "alpine_ana", hoursAgo: 5, score: 18,
      title: "Is a 20°F quilt warm enough for the Sierra in late September?",
      body: "Planning a section of the JMT from Tuolumne to Red's Meadow in the last week of September. I sleep on the cold side and I'm eyeing a 20°F quilt with a 4.2 R-value pad. Has anyone been cold with that setup at 10,000 ft that time of year?",
      replies: [
        { author: "peakbagger_raj", hoursAgo: 4, text: "Did that stretch last year with a 20° quilt and a puffy. Coldest night was 24°F at Thousand Island Lake and I was fine wearing everything." },
        { author: "mountain_mel", hoursAgo: 3, text: "If you sleep cold, bring a fleece hat and a liner. Quilts get drafty when temps drop, so practise with the pad straps at home first." },
        { author: "trailmix_tom", hoursAgo: 2, text: "Camp a little below the lakes when you can. Cold air pools right at the water and it makes a big difference." },
      ],
    },
    {
      id: "t2", category: "trips", author: "switchback_sam", hoursAgo: 26, score: 42,
      title: "Trip report: 4 days on the Wonderland Trail (counter-clockwise)",
      body: "Just got back from a 4-day push on the Wonderland starting at Longmire. Permits came through in the early access lottery. Day 2 from Mowich to Carbon River was the highlight — the suspension bridge is back in place. Bugs were manageable with a head net. Happy to answer questions about resupply at Sunrise.",
      replies: [
        { author: "kestrel_co", hoursAgo: 24, text: "Four days is fast! How many miles was your longest day?" },
        { author: "switchback_sam", hoursAgo: 22, text: "Day 3, about 27 miles from Carbon River to Sunrise. Brutal but worth it for the views at Skyscraper Pass." },
      ],
    },
    {
      id: "t3", category: "conditions", author: "rangerdave", hoursAgo: 2, score: 27,
      title: "Washed-out bridge on the Eagle Creek trail — detour info",
      body: "Heads up: the footbridge just past High Bridge washed out during Sunday's storm. The forest service has flagged a detour along the old service road that adds about 1.5 miles. Expect mud and a couple of downed trees on the detour.",
      replies: [
        { author: "newboots_lena", hoursAgo: 2, text: "Thank you! Was planning to go this weekend. Is Tunnel Falls still reachable?" },
        { author: "rangerdave", hoursAgo: 1, text: "Yes, Tunnel Falls is reachable via the detour. Just start early, parking fills by 8." },
        { author: "alpine_ana", hoursAgo: 1, text: "Went Monday, can confirm the detour is well flagged. Poles help on the muddy section." },
        { author: "trailmix_tom", hoursAgo: 1, text: "Reported the downed trees to the district office so hopefully they get cleared soon." },
      ],
    },
    {
      id: "t4", category: "beginners", author: "newboots_lena", hoursAgo: 75, score: 9,
      title: "First overnight trip — what do I actually need?",
      body: "I've done plenty of day hikes and want to try a single night at a lake about 4 miles in. I have a day pack, a rain jacket and trail runners. What's the minimum I should buy or rent for one night in early summer?",
      replies: [
        { author: "mountain_mel", hoursAgo: 74, text: "Rent the big three first: tent, sleeping bag and pad. Don't buy anything until you know what you like." },
        { author: "switchback_sam", hoursAgo: 72, text: "Add a headlamp, a water filter and a way to hang or store food. Check if the area requires bear canisters." },
        { author: "peakbagger_raj", hoursAgo: 70, text: "A warm layer for camp! Evenings at a lake get cold quickly even in June." },
        { author: "kestrel_co", hoursAgo: 60, text: "Do a test night in your backyard or a drive-in campground. You'll find what's missing without the stakes." },
        { author: "newboots_lena", hoursAgo: 50, text: "This is so helpful, thanks everyone. Renting a kit from the co-op next week!" },
      ],
    },
    {
      id: "t5", category: "gear", author: "peakbagger_raj", hoursAgo: 146, score: 33,
      title: "Trail runners vs. boots for rocky terrain",
      body: "I keep rolling my ankle on talus in trail runners, but my old boots give me blisters after 10 miles. Has anyone found a middle ground, like a mid-height trail shoe, that works for scree-heavy routes?",
      replies: [
        { author: "alpine_ana", hoursAgo: 140, text: "Ankle strength training helped me more than any shoe. That said, a wider sole platform made a big difference on talus." },
      ],
    },
    {
      id: "t6", category: "conditions", author: "mountain_mel", hoursAgo: 9, score: 6,
      title: "Snow still blocking Tioga Pass trailheads?",
      body: "Looking at a trip to Cathedral Lakes. Has anyone been up recently? Wondering whether microspikes are still needed above 9,500 ft.",
      replies: [
        { author: "rangerdave", hoursAgo: 8, text: "Mostly melted out on the south-facing slopes. Shady switchbacks still have patches, so spikes are a good idea early in the morning." },
        { author: "kestrel_co", hoursAgo: 7, text: "Was there Saturday, trail to Lower Cathedral is clear. Upper lake still had snow around the shore." },
      ],
    },
    {
      id: "t7", category: "trips", author: "kestrel_co", hoursAgo: 50, score: 15,
      title: "Sunrise on Mount Tallac: short report",
      body: "Started from the Mount Tallac trailhead at 3:30 am and made the summit just before sunrise. Clear skies over Lake Tahoe and Desolation Wilderness. The last mile is steep and loose, so bring a good headlamp.",
      replies: [],
    },
    {
      id: "t8", category: "gear", author: "trailmix_tom", hoursAgo: 98, score: 12,
      title: "How do you keep your water filter from freezing?",
      body: "Heading out for some shoulder-season trips and I've read that a frozen hollow-fibre filter is ruined. What's your routine for keeping it safe overnight?",
      replies: [
        { author: "mountain_mel", hoursAgo: 96, text: "It sleeps in a zip bag at the bottom of my quilt. Same for phone and batteries." },
        { author: "switchback_sam", hoursAgo: 90, text: "During the day keep it in a jacket pocket rather than the side pocket of your pack." },
        { author: "peakbagger_raj", hoursAgo: 80, text: "If you think it froze, switch to chemical treatment for the rest of the trip to be safe." },
      ],
    },
  ],
};

/* Stagepass event catalogue (bundled sample data). */
window.STAGEPASS_EVENTS = [
  {
    id: 'midnight-harbor', category: 'Concerts', title: 'Midnight Harbor — Live in Concert',
    venue: 'Crescent Hall', city: 'Seattle', date: '2027-03-13', time: '8:00 PM',
    blurb: 'The indie-folk five-piece bring their sold-out "Lanterns" tour home, with support from Willa Grey.',
    tickets: [
      { id: 'ga', name: 'General Admission', price: 45, note: 'Standing floor' },
      { id: 'balcony', name: 'Balcony Reserved', price: 68, note: 'Reserved seat, upper level' },
      { id: 'vip', name: 'VIP Lounge', price: 150, note: 'Early entry, private bar and tour poster', soldOut: true },
    ],
  },
  {
    id: 'hamlet-northlight', category: 'Theatre', title: 'Hamlet',
    venue: 'Northlight Playhouse', city: 'Portland', date: '2027-02-20', time: '7:30 PM',
    blurb: 'Northlight Repertory’s new staging of Shakespeare’s tragedy, set in a fading 1920s hotel. Running time 2 h 50 min.',
    tickets: [
      { id: 'stalls', name: 'Stalls', price: 58, note: 'Rows A–P' },
      { id: 'circle', name: 'Dress Circle', price: 42, note: 'Upper level, rows A–F' },
      { id: 'student', name: 'Student', price: 22, note: 'Valid student ID required at entry' },
    ],
  },
  {
    id: 'laugh-track', category: 'Comedy', title: 'Laugh Track: Stand-up Night with Dana Ruiz',
    venue: 'The Brick Room', city: 'Seattle', date: '2027-01-29', time: '9:00 PM',
    blurb: 'Dana Ruiz tapes her new hour in front of a live audience. Ages 18+; two-drink minimum.',
    tickets: [
      { id: 'ga', name: 'General Admission', price: 28, note: 'Open seating' },
      { id: 'front', name: 'Front Row Table', price: 40, note: 'Table for two, first row' },
    ],
  },
  {
    id: 'cascade-fc', category: 'Sports', title: 'Friday Night Football: Cascade FC vs. Bay City United',
    venue: 'Lakeside Stadium', city: 'Tacoma', date: '2027-04-09', time: '7:00 PM',
    blurb: 'Season opener under the lights. Gates open 90 minutes before kick-off.',
    tickets: [
      { id: 'upper', name: 'Upper Deck', price: 32, note: 'Sections 301–330' },
      { id: 'lower', name: 'Lower Bowl', price: 55, note: 'Sections 101–128' },
      { id: 'club', name: 'Pitchside Club', price: 120, note: 'Padded seats and club lounge access' },
    ],
  },
  {
    id: 'ella-tribute', category: 'Concerts', title: 'Jazz on the Pier: A Tribute to Ella',
    venue: 'Pier 57 Pavilion', city: 'Seattle', date: '2027-05-22', time: '6:30 PM',
    blurb: 'The 18-piece Sound City Orchestra and vocalist Monique Hart perform the Ella Fitzgerald songbook at sunset.',
    tickets: [
      { id: 'lawn', name: 'Lawn', price: 35, note: 'Bring a blanket' },
      { id: 'reserved', name: 'Reserved Seating', price: 60, note: 'Covered pavilion seats' },
    ],
  },
  {
    id: 'swan-lake', category: 'Theatre', title: 'Swan Lake — Pacific Ballet',
    venue: 'Marion Oliver Hall', city: 'Seattle', date: '2027-03-27', time: '7:30 PM',
    blurb: 'Tchaikovsky’s classic with live orchestra. Suitable for ages 6 and up.',
    tickets: [
      { id: 'orchestra', name: 'Orchestra', price: 85, note: 'Main floor' },
      { id: 'mezzanine', name: 'Mezzanine', price: 55, note: 'First balcony' },
      { id: 'gallery', name: 'Gallery', price: 30, note: 'Upper balcony, limited view' },
    ],
  },
  {
    id: 'open-mic', category: 'Comedy', title: 'Open Mic Night Showcase',
    venue: 'Hideaway Comedy Cellar', city: 'Portland', date: '2027-02-05', time: '8:00 PM',
    blurb: 'Twelve up-and-coming comics, seven minutes each, hosted by Theo Banks.',
    tickets: [
      { id: 'ga', name: 'General Admission', price: 15, note: 'Open seating' },
    ],
  },
  {
    id: 'roller-derby', category: 'Sports', title: 'Emerald City Roller Derby Championship',
    venue: 'Rose Arena', city: 'Tacoma', date: '2027-06-12', time: '5:00 PM',
    blurb: 'The league’s top four teams skate for the Emerald Cup. Family friendly.',
    tickets: [
      { id: 'ga', name: 'General Admission', price: 24, note: 'Bleacher seating' },
      { id: 'trackside', name: 'Trackside', price: 38, note: 'Floor seats by the track' },
    ],
  },
];

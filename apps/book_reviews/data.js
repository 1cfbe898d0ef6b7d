/* Seed catalogue and reviews for a fresh Marginalia community. */
window.MARGINALIA_SEED = {
  me: "Dana Whitfield",
  books: [
    { id: "left-hand-of-darkness", title: "The Left Hand of Darkness", author: "Ursula K. Le Guin", year: 1969, genre: "Science fiction", pages: 304, colors: ["#1e3a5f", "#7dd3fc"],
      synopsis: "Genly Ai is sent alone to the ice-bound planet Gethen to persuade its nations to join an interplanetary alliance. Among a people who have no fixed sex, he must learn to trust the one politician who believes in him, and the two undertake a desperate crossing of the glacier." },
    { id: "station-eleven", title: "Station Eleven", author: "Emily St. John Mandel", year: 2014, genre: "Literary fiction", pages: 333, colors: ["#7c2d12", "#fdba74"],
      synopsis: "Twenty years after a flu pandemic has collapsed civilisation, a travelling troupe of actors and musicians performs Shakespeare for the scattered settlements around the Great Lakes. The novel moves between their journey and the lives of the people connected to a famous actor who died on stage the night the pandemic began." },
    { id: "remains-of-the-day", title: "The Remains of the Day", author: "Kazuo Ishiguro", year: 1989, genre: "Literary fiction", pages: 258, colors: ["#3f3f46", "#d4d4d8"],
      synopsis: "In the summer of 1956, Stevens, an ageing English butler, takes a motoring trip to the West Country to visit a former housekeeper. Along the way he reflects on decades of loyal service to Lord Darlington and slowly, reluctantly, on what that loyalty has cost him." },
    { id: "braiding-sweetgrass", title: "Braiding Sweetgrass", author: "Robin Wall Kimmerer", year: 2013, genre: "Nature writing", pages: 408, colors: ["#365314", "#bef264"],
      synopsis: "A botanist and member of the Citizen Potawatomi Nation braids together Indigenous knowledge, plant science and personal stories, arguing that a reciprocal relationship with the living world is the key to caring for it." },
    { id: "piranesi", title: "Piranesi", author: "Susanna Clarke", year: 2020, genre: "Fantasy", pages: 272, colors: ["#164e63", "#a5f3fc"],
      synopsis: "Piranesi lives in the House, an endless labyrinth of marble halls filled with statues and flooded by tides. He keeps meticulous journals of its wonders, until messages from a stranger begin to suggest that the world is not what he believes it to be." },
    { id: "name-of-the-rose", title: "The Name of the Rose", author: "Umberto Eco", year: 1980, genre: "Historical mystery", pages: 536, colors: ["#4c0519", "#fda4af"],
      synopsis: "In 1327 the Franciscan friar William of Baskerville arrives at a wealthy Italian abbey to attend a theological debate, only to find the monks dying one by one. With his novice Adso he investigates a trail that leads into the abbey's forbidden library." },
    { id: "educated", title: "Educated", author: "Tara Westover", year: 2018, genre: "Memoir", pages: 352, colors: ["#78350f", "#fde68a"],
      synopsis: "Raised by survivalist parents in the mountains of Idaho, Tara Westover never set foot in a classroom until she was seventeen. Her memoir follows her path to a PhD from Cambridge and the painful cost of breaking with her family." },
    { id: "gentleman-in-moscow", title: "A Gentleman in Moscow", author: "Amor Towles", year: 2016, genre: "Historical fiction", pages: 462, colors: ["#1e1b4b", "#c4b5fd"],
      synopsis: "In 1922 Count Alexander Rostov is sentenced by a Bolshevik tribunal to house arrest in the Metropol hotel across from the Kremlin. Over the following decades he builds a rich life within its walls as history unfolds outside." },
    { id: "tomorrow-and-tomorrow", title: "Tomorrow, and Tomorrow, and Tomorrow", author: "Gabrielle Zevin", year: 2022, genre: "Literary fiction", pages: 416, colors: ["#831843", "#f9a8d4"],
      synopsis: "Sam and Sadie meet as children in a hospital games room and reunite years later at university, where they start designing video games together. Their creative partnership brings fame, rivalry and a friendship tested over three decades." },
  ],
  reviews: [
    { id: "r1", book: "left-hand-of-darkness", author: "Grace Liu", rating: 5, date: "2026-08-03", text: "The journey across the Gobrin ice is one of the most tense and tender things I have read. Le Guin builds a whole culture without ever lecturing." },
    { id: "r2", book: "left-hand-of-darkness", author: "Ben Okafor", rating: 4, date: "2026-02-21", text: "Slow first hundred pages, but the political intrigue pays off. The chapters of Gethenian myths are a clever way to show the world." },
    { id: "r3", book: "left-hand-of-darkness", author: "Ines Duarte", rating: 5, date: "2025-12-09", text: "Still feels modern more than fifty years later. The friendship between Genly and Estraven stayed with me for weeks." },

    { id: "r4", book: "station-eleven", author: "Omar Haddad", rating: 5, date: "2026-05-02", text: "Quietly devastating and hopeful at the same time. The travelling symphony sections are beautiful, and the ending ties every thread together." },
    { id: "r5", book: "station-eleven", author: "Grace Liu", rating: 4, date: "2026-03-18", text: "Loved the structure jumping between before and after. A few of the Hollywood chapters dragged for me, but the Great Lakes scenes are vivid." },
    { id: "r6", book: "station-eleven", author: "Theo Marsh", rating: 2, date: "2026-01-09", text: "Beautifully written, but I wanted more about how the world actually rebuilt. The prophet subplot felt underdeveloped." },

    { id: "r7", book: "remains-of-the-day", author: "Hannah Kowalski", rating: 5, date: "2026-06-27", text: "A masterclass in unreliable narration. Everything important happens between the lines of what Stevens is willing to admit." },
    { id: "r8", book: "remains-of-the-day", author: "Sam Everett", rating: 4, date: "2026-04-05", text: "Gentle and sad. The scene on the pier near the end is perfect. Some of the banter passages went on a bit long." },

    { id: "r9", book: "braiding-sweetgrass", author: "Priya Raman", rating: 5, date: "2026-07-19", text: "Changed how I look at my own garden. The chapter on the Three Sisters is something I have already reread twice." },
    { id: "r10", book: "braiding-sweetgrass", author: "Lucía Romero", rating: 4, date: "2026-05-30", text: "Part science, part memoir, part prayer. It is best read slowly, a chapter at a time, rather than all at once." },
    { id: "r11", book: "braiding-sweetgrass", author: "Theo Marsh", rating: 4, date: "2025-11-24", text: "Some essays repeat the same ideas, but the writing about reciprocity and gratitude is genuinely moving." },

    { id: "r12", book: "piranesi", author: "Dana Whitfield", rating: 5, date: "2026-04-11", text: "I went in knowing nothing and that is the best way. The House is the most original setting I have met in years, and Piranesi himself is a joy." },
    { id: "r13", book: "piranesi", author: "Lucía Romero", rating: 4, date: "2026-06-20", text: "Dreamlike and strange. The mystery resolves a bit quickly in the last third, but the atmosphere is unforgettable." },
    { id: "r14", book: "piranesi", author: "Ben Okafor", rating: 5, date: "2026-02-03", text: "Short, perfectly paced and kind-hearted. I finished it in one sitting and immediately wanted to start again." },
    { id: "r15", book: "piranesi", author: "Hannah Kowalski", rating: 4, date: "2025-12-15", text: "Took me a few chapters to get used to the journal style, then I was completely hooked on the statues and the tides." },

    { id: "r16", book: "name-of-the-rose", author: "Sam Everett", rating: 4, date: "2026-07-30", text: "A genuinely clever murder mystery buried inside a history of medieval theology. Worth pushing through the long debates." },
    { id: "r17", book: "name-of-the-rose", author: "Ines Duarte", rating: 2, date: "2026-03-02", text: "The library and the detective plot are great, but pages of untranslated Latin made it a real slog for me." },
    { id: "r18", book: "name-of-the-rose", author: "Omar Haddad", rating: 5, date: "2025-11-20", text: "One of my all-time favourites. William is a wonderful detective and the final scenes in the library are spectacular." },
    { id: "r19", book: "name-of-the-rose", author: "Priya Raman", rating: 3, date: "2026-05-14", text: "I admired it more than I enjoyed it. The atmosphere is incredible, the pacing less so." },
    { id: "r20", book: "name-of-the-rose", author: "Theo Marsh", rating: 1, date: "2026-01-26", text: "Gave up after about 150 pages. Too many digressions about heresies before anything happens." },

    { id: "r21", book: "educated", author: "Omar Haddad", rating: 4, date: "2026-08-12", text: "Hard to read at times because of the violence in her family, but her determination is remarkable and the writing is clear." },
    { id: "r22", book: "educated", author: "Hannah Kowalski", rating: 5, date: "2026-04-22", text: "The most gripping memoir I have read. I appreciated how carefully she notes where her memories differ from her siblings'." },
    { id: "r23", book: "educated", author: "Ben Okafor", rating: 3, date: "2026-02-11", text: "An important story, though the Cambridge chapters felt rushed compared with the childhood sections." },

    { id: "r24", book: "gentleman-in-moscow", author: "Ines Duarte", rating: 4, date: "2026-09-01", text: "Charming, witty and surprisingly moving. The Count's friendship with Nina and later Sofia is the heart of the book." },
    { id: "r25", book: "gentleman-in-moscow", author: "Sam Everett", rating: 5, date: "2026-06-08", text: "Pure comfort reading with real depth underneath. I want to have dinner at the Boyarsky now." },
  ],
};

/* Ember & Oak coffee catalogue (bundled sample data). Prices in USD per bag size. */
window.EMBER_OAK_COFFEES = [
  { id: 'yirgacheffe', name: 'Yirgacheffe Kochere', origin: 'Ethiopia', roast: 'Light', notes: 'Jasmine, bergamot and lemon curd with a silky, tea-like body.', prices: { '250g': 18, '500g': 34, '1kg': 62 } },
  { id: 'huila', name: 'Huila Las Flores', origin: 'Colombia', roast: 'Medium', notes: 'Red apple, caramel and cocoa nib; balanced and sweet.', prices: { '250g': 16.5, '500g': 31, '1kg': 56 } },
  { id: 'santos', name: 'Santos Bourbon', origin: 'Brazil', roast: 'Medium', notes: 'Hazelnut, milk chocolate and brown sugar. Low acidity.', prices: { '250g': 14, '500g': 26, '1kg': 48 } },
  { id: 'ember-espresso', name: 'Ember House Espresso', origin: 'Brazil & Guatemala blend', roast: 'Dark', notes: 'Dark chocolate, molasses and toasted almond; thick crema.', prices: { '250g': 15, '500g': 28, '1kg': 52 } },
  { id: 'kiambu', name: 'Kiambu AA', origin: 'Kenya', roast: 'Light', notes: 'Blackcurrant, pink grapefruit and raw sugar with a juicy finish.', prices: { '250g': 21, '500g': 40, '1kg': 74 } },
  { id: 'sumatra', name: 'Sumatra Mandheling', origin: 'Indonesia', roast: 'Dark', notes: 'Cedar, dark cocoa and earthy spice with a heavy, syrupy body.', prices: { '250g': 17, '500g': 32, '1kg': 58 } },
  { id: 'injerto-decaf', name: 'El Injerto Decaf', origin: 'Guatemala (Swiss Water® decaf)', roast: 'Medium', notes: 'Toffee, orange peel and graham cracker — all the flavour, none of the buzz.', prices: { '250g': 17.5, '500g': 33, '1kg': 60 } },
  { id: 'morning-blend', name: 'Oak Barrel Morning Blend', origin: 'Colombia & Brazil blend', roast: 'Medium', notes: 'Maple, roasted pecan and dried cherry. Our everyday drip coffee.', prices: { '250g': 12.5, '500g': 23, '1kg': 42 } },
];

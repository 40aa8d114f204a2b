/**
 * Passwords (and password stems) that appear at the top of every published list of leaked
 * passwords, written down here so the check works offline and ships no dependency (issue 27 §17,
 * docs/decisions/038). Lower case; `weakPasswordReason` also strips a trailing run of digits and
 * symbols ("password123!") and undoes common letter swaps ("p@ssw0rd") before looking a stem up.
 */
export const COMMON_PASSWORD_STEMS: readonly string[] = [
  "password", "passw0rd", "passwort", "passwd", "pass", "pwd", "secret", "letmein", "welcome", "admin",
  "administrator", "root", "toor", "login", "master", "qwerty", "qwertz", "azerty", "asdf", "asdfgh",
  "asdfghjk", "asdfghjkl", "zxcvbn", "zxcvbnm", "qazwsx", "qwaszx", "1qaz2wsx", "1q2w3e4r", "1q2w3e",
  "q1w2e3r4", "qwer", "qwerty123", "abc", "abcd", "abcdef", "abcdefg", "abcdefgh", "abc123", "iloveyou",
  "loveyou", "love", "lovely", "sunshine", "princess", "dragon", "monkey", "shadow", "football",
  "baseball", "basketball", "soccer", "hockey", "superman", "batman", "spiderman", "starwars", "pokemon",
  "trustno1", "michael", "jennifer", "jordan", "hunter", "ranger", "buster", "thomas", "robert",
  "charlie", "daniel", "andrew", "joshua", "matthew", "jessica", "ashley", "nicole", "michelle",
  "amanda", "summer", "winter", "spring", "autumn", "freedom", "whatever", "computer", "internet",
  "samsung", "google", "apple", "facebook", "youtube", "twitter", "instagram", "linkedin", "microsoft",
  "windows", "killer", "cheese", "cookie", "chocolate", "banana", "orange", "purple", "yellow",
  "silver", "golden", "diamond", "flower", "tigger", "ginger", "pepper", "maggie", "bailey", "buddy",
  "mustang", "ferrari", "porsche", "mercedes", "harley", "corvette", "guitar", "music", "hello",
  "helloworld", "welcome1", "changeme", "default", "guest", "test", "testing", "tester", "demo",
  "sample", "example", "temp", "temporary", "nothing", "anything", "something", "everything",
  "blahblah", "trustme", "access", "monday", "friday", "sunday", "january", "december", "august",
  "september", "october", "november", "christmas", "birthday", "family", "friends", "forever",
  "angel", "angels", "baby", "babygirl", "beautiful", "sweetheart", "sweetie", "honey", "darling",
  "lover", "sexy", "hottie", "fuckyou", "fuckoff", "bitch", "asshole", "jesus", "christ", "god",
  "godisgood", "blessed", "heaven", "matrix", "zaq12wsx", "zaq1zaq1", "qwertyuiop", "qwertyui",
  "poiuytrewq", "mnbvcxz", "lkjhgfdsa", "asdasd", "qweqwe", "zxczxc", "aaaaaa", "qqqqqq", "abcabc",
  "killer1", "soccer1", "hello123", "vidfetch", "download", "downloader", "video", "videos",
  "youtube1", "tiktok", "netflix", "spotify", "minecraft", "fortnite", "roblox", "naruto", "liverpool",
  "chelsea", "arsenal", "barcelona", "manchester", "juventus", "madrid", "london", "paris", "berlin",
  "newyork", "america", "canada", "england", "germany", "france", "australia", "india", "brazil",
  "mexico", "letmein1", "iloveu", "loveme", "mylove", "myspace", "passpass", "mypassword",
  "yourpassword", "newpassword", "oldpassword", "nopassword", "password1", "security", "secure",
  "private", "office", "company", "business", "account", "user", "username", "student", "teacher",
  "school", "college", "university", "doctor", "nurse", "police", "soldier", "captain", "pirate",
  "ninja", "wizard", "warrior", "knight", "legend", "phoenix", "thunder", "lightning", "storm",
  "tiger", "lion", "eagle", "falcon", "wolf", "bear", "shark", "dolphin", "horse", "rabbit", "kitten",
  "puppy", "doggie", "kitty", "snoopy", "mickey", "minnie", "donald", "goofy", "elephant", "butterfly",
  "rainbow", "unicorn", "sparkle", "bubbles", "cupcake", "pumpkin", "peanut", "coffee", "chicken",
  "pizza", "burger", "cheese1", "beer", "vodka", "whiskey", "marlboro", "marijuana", "cannabis",
  "blink182", "metallica", "nirvana", "eminem", "slipknot", "beatles", "elvis", "michael1", "jackson",
  "justin", "bieber", "taylor", "swift", "rihanna", "beyonce", "madonna", "gandalf", "frodo", "hobbit",
  "hogwarts", "harrypotter", "potter", "voldemort", "skywalker", "vader", "yoda", "startrek",
  "enterprise", "galaxy", "universe", "planet", "earth", "moon", "star", "stars", "sunset", "ocean",
  "summer1", "p4ssw0rd", "pa55word", "pa55w0rd", "passw0rd1", "adminadmin", "administrator1",
  "rootroot", "useruser", "testtest", "guestguest", "demodemo", "welcomewelcome", "loginlogin",
];

/**
 * Whole passwords that no stem rule catches (number patterns people remember); digits-only and
 * sequences are refused by rule anyway, these are the rest.
 */
export const COMMON_PASSWORDS: readonly string[] = [
  "11223344", "12121212", "12341234", "12344321", "13131313", "69696969", "88888888", "01012000",
  "01011990", "11111111a", "1234qwer", "qwer1234", "1qazxsw2", "asdf1234", "1234asdf", "zxcv1234",
  "abcd1234", "a1b2c3d4", "aa123456", "a12345678", "123456789a", "123qweasd", "qweasdzxc",
  "q1w2e3r4t5", "1q2w3e4r5t", "1qaz2wsx3edc", "zaq1xsw2", "!qaz2wsx", "qazwsxedc", "asdfqwer",
  "password!", "p@ssword", "p@55w0rd", "iloveyou!", "letmein!", "welcome!", "changeme!",
];

/// The tuned constants of GIF encoding, in one place.
enum GIFTuning {}

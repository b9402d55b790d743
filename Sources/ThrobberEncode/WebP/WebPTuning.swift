/// The tuned constants of WebP encoding, in one place.
enum WebPTuning {}

for /* c */ {
  k = 1
} null = /* c */ [] null = /* c */ []

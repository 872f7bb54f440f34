if /* c */ a /* c */ {
  k = 1
} 
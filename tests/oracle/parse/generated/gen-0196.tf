null "a\nb" null {}

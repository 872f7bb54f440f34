é
true
{} a "l" "l" {
} é null {}
é
true
{} a "l" "l" {
} a "l" "l" {
}
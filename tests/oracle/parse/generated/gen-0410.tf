a "l" "l" {
}a "l" "l" {
} a "l" "l" {
}
null null null {
} 
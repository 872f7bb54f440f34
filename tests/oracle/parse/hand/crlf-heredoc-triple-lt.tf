a = <<<EOT
x
EOT

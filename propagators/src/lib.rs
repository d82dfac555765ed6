//! Pumpkin propagators and branchers for k_i-anonymous clustering.
